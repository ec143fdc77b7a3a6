//! The evaluation's parameters: one flat array of `i32` weights, with named groups, so that
//! `soppo-tools tune-eval` can fit them all at once and print a new [`DEFAULT_PARAMS`].
//!
//! Units: the "fine" groups (square control, control majority) are in 1/16 centipawn per
//! square, because one square's control is worth only a few centipawns and integer rounding
//! would otherwise swallow the distance profile; every other group is in centipawns.

use std::fmt::Write as _;

/// Scale of the fine groups: a weight of 16 there is one centipawn.
pub const FINE: i32 = 16;

/// Board material, indexed by `PieceKind::index() - 1` (the king's slot is unused).
pub const BOARD: usize = 0;
/// Hand material, in `PieceKind::HAND` order.
pub const HAND: usize = BOARD + 14;
/// Number of control levels told apart: a square controlled once, twice, three times or more.
pub const LEVELS: usize = 3;
/// Chebyshev distances to a king told apart: 0, 1, 2, 3, 4 and 5 or more.
pub const DISTANCES: usize = 6;
/// Control of a square near one's own king: `[level][distance]` (fine units).
pub const CTRL_OWN: usize = HAND + 7;
/// Control of a square near the enemy king: `[level][distance]` (fine units).
pub const CTRL_ENEMY: usize = CTRL_OWN + LEVELS * DISTANCES;
/// More controls than the opponent on a square near one's own king, by distance (fine units).
pub const MAJ_OWN: usize = CTRL_ENEMY + LEVELS * DISTANCES;
/// More controls than the opponent on a square near the enemy king, by distance (fine units).
pub const MAJ_ENEMY: usize = MAJ_OWN + DISTANCES;
/// Number of piece groups for the threat terms: P L N S gold-like B R H D.
pub const GROUPS: usize = 9;
/// Defended pieces: any piece but the king, then bishops, rooks, horses and dragons again.
pub const DEFENDED: usize = MAJ_ENEMY + DISTANCES;
/// A piece of the side to move attacked and undefended, by group (it can still flee).
pub const HANG_STM: usize = DEFENDED + 2;
/// A piece of the side not to move attacked and undefended, by group (it can be taken now).
pub const HANG_OPP: usize = HANG_STM + GROUPS;
/// King 8-neighbourhood terms, see [`KING_NB_NAMES`].
pub const KING_NB: usize = HANG_OPP + GROUPS;
pub const KING_NB_NAMES: [&str; 7] = [
    "empty_attacked_undefended",
    "empty_attacked_defended",
    "own_piece_attacked",
    "enemy_piece_adjacent",
    "empty_safe",
    "attacked_twice",
    "undefended_x_enemy_hand",
];
/// King placement by rank as seen by its owner (0 = the far rank, 8 = the home rank).
pub const KING_RANK: usize = KING_NB + KING_NB_NAMES.len();
/// King placement by distance of its file from the centre file (0..=4).
pub const KING_FILE: usize = KING_RANK + 9;
/// Bonus for having the move.
pub const TEMPO: usize = KING_FILE + 5;
/// Number of parameters.
pub const NUM_PARAMS: usize = TEMPO + 1;

const GROUP_NAMES: [&str; GROUPS] = ["P", "L", "N", "S", "G", "B", "R", "H", "D"];
const BOARD_NAMES: [&str; 14] = ["P", "L", "N", "S", "B", "R", "G", "K", "+P", "+L", "+N", "+S", "H", "D"];
const HAND_NAMES: [&str; 7] = ["P", "L", "N", "S", "G", "B", "R"];

/// The weights of the evaluation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Params(pub [i32; NUM_PARAMS]);

/// The group a parameter belongs to and its name, e.g. `("ctrl_own", "L2 d3")`.
pub fn param_name(i: usize) -> (&'static str, String) {
    assert!(i < NUM_PARAMS, "parameter index {i} out of range");
    let level_dist = |j: usize| format!("L{} d{}", j / DISTANCES + 1, j % DISTANCES);
    match i {
        _ if i < HAND => ("board", BOARD_NAMES[i - BOARD].to_string()),
        _ if i < CTRL_OWN => ("hand", HAND_NAMES[i - HAND].to_string()),
        _ if i < CTRL_ENEMY => ("ctrl_own", level_dist(i - CTRL_OWN)),
        _ if i < MAJ_OWN => ("ctrl_enemy", level_dist(i - CTRL_ENEMY)),
        _ if i < MAJ_ENEMY => ("maj_own", format!("d{}", i - MAJ_OWN)),
        _ if i < DEFENDED => ("maj_enemy", format!("d{}", i - MAJ_ENEMY)),
        _ if i < HANG_STM => ("defended", ["any", "major"][i - DEFENDED].to_string()),
        _ if i < HANG_OPP => ("hang_stm", GROUP_NAMES[i - HANG_STM].to_string()),
        _ if i < KING_NB => ("hang_opp", GROUP_NAMES[i - HANG_OPP].to_string()),
        _ if i < KING_RANK => ("king_nb", KING_NB_NAMES[i - KING_NB].to_string()),
        _ if i < KING_FILE => ("king_rank", format!("r{}", i - KING_RANK)),
        _ if i < TEMPO => ("king_file", format!("f{}", i - KING_FILE)),
        _ => ("tempo", String::new()),
    }
}

/// Whether the evaluation can use parameter `i` at all (the king's material slot cannot).
pub fn is_used(i: usize) -> bool {
    i != BOARD + 7
}

impl Params {
    /// The Rust source of a `DEFAULT_PARAMS` constant holding these values, one group a line,
    /// ready to paste over the one in this file.
    pub fn to_rust_const(&self) -> String {
        let mut out = String::from("#[rustfmt::skip]\npub const DEFAULT_PARAMS: Params = Params([\n");
        let mut i = 0;
        while i < NUM_PARAMS {
            let (group, _) = param_name(i);
            let mut j = i;
            while j < NUM_PARAMS && param_name(j).0 == group {
                j += 1;
            }
            let values: Vec<String> = self.0[i..j].iter().map(i32::to_string).collect();
            let _ = writeln!(out, "    // {group}\n    {},", values.join(", "));
            i = j;
        }
        out.push_str("]);\n");
        out
    }
}

// The embedded weights, set by hand after YaneuraOu's published levels: material of
// `board_value` / `hand_value`; control worth 68 (own king) and 96 (enemy king) centipawns
// divided by distance + 1, halved for each further control; hanging pieces a fraction of their
// value. `soppo-tools tune-eval` prints a replacement for this constant (see docs/EVAL.md);
// weights tuned on the lishogi games lowered the held-out loss but lost 0-40 in play, so they
// are not used (docs/EVAL.md).
#[rustfmt::skip]
pub const DEFAULT_PARAMS: Params = Params([
    // board
    90, 315, 405, 495, 855, 990, 540, 0, 540, 540, 540, 540, 945, 1395,
    // hand
    99, 347, 446, 545, 594, 941, 1089,
    // ctrl_own
    1088, 544, 363, 272, 218, 155, 544, 272, 181, 136, 109, 78, 272, 136, 91, 68, 54, 39,
    // ctrl_enemy
    1536, 768, 512, 384, 307, 219, 768, 384, 256, 192, 154, 110, 384, 192, 128, 96, 77, 55,
    // maj_own
    0, 0, 0, 0, 0, 0,
    // maj_enemy
    0, 0, 0, 0, 0, 0,
    // defended
    5, 5,
    // hang_stm
    -9, -31, -40, -50, -54, -85, -99, -95, -140,
    // hang_opp
    30, 105, 135, 165, 180, 285, 330, 315, 465,
    // king_nb
    -30, -10, -15, -10, 5, -10, -3,
    // king_rank
    -20, -30, -40, -40, -30, -20, -10, 0, 0,
    // king_file
    0, 5, 10, 10, 5,
    // tempo
    20,
]);
