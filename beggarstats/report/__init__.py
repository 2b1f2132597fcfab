"""What readers see: the figures and the findings table, the prose generated from it, and the
live explorer of the notebooks."""
