"""A seat's entry of a table's per-seat values, whether the table keeps them in arrays or in registers.

The multi-player pass (`kernel_multi`) keeps each per-seat value - a plane of every hand, the lengths,
who is in, the ring of seats, the per-seat figures, the snapshot - in a container indexed by seat, and
the seat is data (whose turn it is). The CPU's passes give it arrays, changed in place. The GPU's refill
kernels give it registers: a thread's array indexed by data lives in local memory (memory, not
registers), while a tuple whose every element is read and written by selects stays in registers, as
the two-player game's scalars do (issue #54 item 2). The pass is written once for both: it reads
``seat(a, i)`` and writes ``a = with_seat(a, i, v)``, which

* for an array stores in place and returns the same array (the same value: the compiled CPU code is
  that of ``a[i] = v``);
* for a tuple returns the tuple with element ``i`` replaced, every element a select on ``i == k``;
* for `Nibbles` / `Octets` (small entries packed 16 / 8 to a uint64 word, so that six seats' ring takes
  2 words and their lengths 1, where a tuple takes a register an entry) selects the word, then shifts
  and masks.

All are numba intrinsics, compiled by the CPU's and the GPU's targets alike. An index is not checked
(as the passes' uint64 indices are not): it is below the container's length by the pass's invariants.
"""

from __future__ import annotations

from collections import namedtuple

from llvmlite import ir
from numba import types
from numba.core import cgutils
from numba.core.extending import intrinsic
from numba.core.imputils import impl_ret_borrowed

from .kernel_cache import install as _install_kernel_cache

__all__ = ["seat", "with_seat", "kept", "filled", "Nibbles", "Octets", "packed_words"]

_install_kernel_cache()  # compiled kernels go to the per-user cache (kernel_cache.py)

# Entries of 4 bits (0 to 15), 16 to a uint64 word, ``words`` a tuple of the words: the ring of seats
# (`kernel_multi._ring`: seat numbers and positions, below 12). Read as int64.
Nibbles = namedtuple("Nibbles", "words")
# Entries of 8 bits (-128 to 127), 8 to a word: lengths, who is in, a seat's minimum, its place. Read as int64.
Octets = namedtuple("Octets", "words")
_BITS = {Nibbles: (4, False), Octets: (8, True)}  # entry bits, signed


def packed_words(kind, count: int) -> int:
    """The words of ``kind`` (`Nibbles` or `Octets`) holding ``count`` entries."""
    return -(-count * _BITS[kind][0] // 64)


def _packed(a):
    """(bits, signed) of a packed container's type, or None."""
    if isinstance(a, types.BaseNamedTuple) and a.instance_class in _BITS:
        return _BITS[a.instance_class]
    return None


def _hits(builder, i, count):
    """``i == k`` for every k < count (an i1 each)."""
    return [builder.icmp_unsigned("==", i, ir.Constant(i.type, k)) for k in range(count)]


def _pick(builder, values, hits):
    """The value whose hit is true (the first if none is): a chain of selects."""
    out = values[0]
    for v, hit in zip(values[1:], hits[1:]):
        out = builder.select(hit, v, out)
    return out


def _word_of(builder, a, i, aty, bits):
    """(the words, their values, the hits on the word of entry ``i``, its shift) in the packed ``a`` (of
    numba type ``aty``)."""
    words = builder.extract_value(a, 0)
    i64 = ir.IntType(64)
    idx = builder.zext(i, i64) if i.type.width < 64 else builder.trunc(i, i64) if i.type.width > 64 else i
    per = 64 // bits
    values = [builder.extract_value(words, k) for k in range(aty.types[0].count)]
    hits = _hits(builder, builder.udiv(idx, ir.Constant(i64, per)), len(values))
    shift = builder.mul(builder.urem(idx, ir.Constant(i64, per)), ir.Constant(i64, bits))
    return words, values, hits, shift


def _pointer(context, builder, aty, a, i, ity):
    """The address of array element ``i`` (no wraparound, no bounds check)."""
    ary = context.make_array(aty)(context, builder, a)
    idx = context.cast(builder, i, ity, types.intp)
    return cgutils.get_item_pointer(context, builder, aty, ary, [idx], wraparound=False)


def _container(a) -> bool:
    return isinstance(a, (types.Array, types.UniTuple)) or _packed(a) is not None


@intrinsic
def seat(typingctx, a, i):
    """``a[i]``: an array's element (a load), a tuple's (selects: no memory), a packed entry (int64)."""
    if not isinstance(i, types.Integer) or not _container(a):
        return None
    packed = _packed(a)
    if packed is not None:
        bits, signed = packed

        def codegen(context, builder, signature, args):
            _, values, hits, shift = _word_of(builder, args[0], args[1], signature.args[0], bits)
            word = builder.lshr(_pick(builder, values, hits), shift)
            c = ir.Constant(word.type, 64 - bits)
            word = builder.shl(word, c)
            return builder.ashr(word, c) if signed else builder.lshr(word, c)

        return types.int64(a, types.unliteral(i)), codegen

    if isinstance(a, types.Array):
        def codegen(context, builder, signature, args):
            aty, ity = signature.args
            ptr = _pointer(context, builder, aty, args[0], args[1], ity)
            return context.unpack_value(builder, aty.dtype, ptr)
    else:
        def codegen(context, builder, signature, args):
            tup, idx = args
            count = signature.args[0].count
            return _pick(builder, [builder.extract_value(tup, k) for k in range(count)], _hits(builder, idx, count))

    return a.dtype(a, types.unliteral(i)), codegen


@intrinsic
def with_seat(typingctx, a, i, v):
    """``a`` with element ``i`` set to ``v`` (cast to the element type): an array changed in place and
    returned itself, or a new tuple or packed container (each element or word a select: no memory)."""
    if not isinstance(i, types.Integer) or not isinstance(v, (types.Integer, types.Boolean)) or not _container(a):
        return None
    sig = a(a, types.unliteral(i), types.unliteral(v))
    packed = _packed(a)
    if packed is not None:
        bits, _ = packed

        def codegen(context, builder, signature, args):
            words, values, hits, shift = _word_of(builder, args[0], args[1], signature.args[0], bits)
            mask = ir.Constant(ir.IntType(64), (1 << bits) - 1)
            val = context.cast(builder, args[2], signature.args[2], types.int64)
            val = builder.shl(builder.and_(val, mask), shift)
            new = builder.or_(builder.and_(_pick(builder, values, hits), builder.not_(builder.shl(mask, shift))), val)
            out = words
            for k, hit in enumerate(hits):
                out = builder.insert_value(out, builder.select(hit, new, values[k]), k)
            return builder.insert_value(args[0], out, 0)
    elif isinstance(a, types.Array):
        def codegen(context, builder, signature, args):
            aty, ity, vty = signature.args
            ptr = _pointer(context, builder, aty, args[0], args[1], ity)
            context.pack_value(builder, aty.dtype, context.cast(builder, args[2], vty, aty.dtype), ptr)
            return impl_ret_borrowed(context, builder, aty, args[0])  # the same array (a reference where NRT counts)
    else:
        def codegen(context, builder, signature, args):
            tup, idx, val = args
            tty, _, vty = signature.args
            new = context.cast(builder, val, vty, tty.dtype)
            out = tup
            for k, hit in enumerate(_hits(builder, idx, tty.count)):
                out = builder.insert_value(out, builder.select(hit, new, builder.extract_value(tup, k)), k)
            return out

    return sig, codegen


@intrinsic
def kept(typingctx, new, old):
    """What a call that is not inlined returned for the container ``old``: ``new`` for a tuple or packed
    words (values), ``old`` itself for an array (changed in place: the call returned the array it was given,
    which the compiler cannot see through the call; given back the argument, it knows the array unchanged
    and keeps the loop's arrays out of its loop-carried values)."""
    if new != old or not _container(old):
        return None

    def codegen(context, builder, signature, args):
        aty = signature.args[1]
        if isinstance(aty, types.Array):
            return impl_ret_borrowed(context, builder, aty, args[1])
        return args[0]

    return old(new, old), codegen


@intrinsic(prefer_literal=True)
def filled(typingctx, count, value):
    """A tuple of ``count`` (a constant) elements, each ``value``: a table's per-seat values in registers."""
    if not isinstance(count, types.IntegerLiteral) or not isinstance(value, (types.Integer, types.Boolean)):
        return None
    vty = types.unliteral(value)
    sig = types.UniTuple(vty, count.literal_value)(count, vty)

    def codegen(context, builder, signature, args):
        out = context.get_constant_undef(signature.return_type)
        for k in range(signature.return_type.count):
            out = builder.insert_value(out, args[1], k)
        return out

    return sig, codegen
