"""Seaborn/matplotlib figures of the analyses. Each function takes the tidy table (or the analysis
output) first and returns a Figure, or the Axes when ``ax=`` is given."""

from .effects import plot_hand_strength, plot_hand_strength_check, plot_hand_strength_panels, plot_variant_effects, plot_variant_grid
from ._common import theme
from .fairness import plot_comebacks, plot_first_player_advantage, plot_seat_advantage, plot_seat_win_rates
from .games import card_count_timeline, hand_size_table, loop_cycle, plot_record_timeline, timeline_facts
from .lengths import plot_hazard_bands, plot_hazard_panels, plot_lengths, plot_survival, plot_survival_panels
from .loops import plot_loop_shares, symlog_threshold

__all__ = [
    "plot_lengths", "plot_survival", "plot_survival_panels", "plot_hazard_bands", "plot_hazard_panels", "plot_seat_win_rates",
    "plot_seat_advantage", "plot_comebacks", "plot_variant_effects", "plot_variant_grid", "theme",
    "plot_hand_strength", "card_count_timeline", "loop_cycle", "hand_size_table", "plot_record_timeline", "timeline_facts",
    "plot_first_player_advantage", "plot_hand_strength_panels", "plot_hand_strength_check", "plot_loop_shares", "symlog_threshold",
]
