//! The evaluation's parameters: one flat array of `i32` weights, with named groups, so that
//! `soppo-tools tune-eval` can fit them all at once and print a new [`DEFAULT_PARAMS`].
//!
//! Units: the "fine" groups (square control, control majority, the piece–king tables) are in
//! 1/16 centipawn, because one square's control or one placement is worth only a few
//! centipawns and integer rounding would otherwise swallow the profile; every other group is
//! in centipawns.

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
/// File distances told apart by the piece–king tables: 0..=8 (left and right are mirrored).
pub const KP_FILES: usize = 9;
/// Rank offsets told apart by the piece–king tables: −8..=8, as seen by the piece's owner
/// (positive: the piece is further forward than the king).
pub const KP_RANKS: usize = 17;
/// One piece group's table: `[file distance][rank offset]`.
pub const KP_TABLE: usize = KP_FILES * KP_RANKS;
/// Placement of each piece relative to its own king: `[group][file distance][rank offset]`,
/// groups as for the threat terms (fine units).
pub const KP_OWN: usize = TEMPO + 1;
/// Placement of each piece relative to the enemy king, the same layout (fine units).
pub const KP_ENEMY: usize = KP_OWN + GROUPS * KP_TABLE;
/// King danger: products of what bears on a king's zone (the squares within two of it), see
/// [`KING_DANGER_NAMES`] (fine units). A linear sum cannot say that an attack grows with
/// every attacker and every piece in hand: these products can.
pub const KING_DANGER: usize = KP_ENEMY + GROUPS * KP_TABLE;
/// `a`: the enemy's controls of the zone (each square counted once per level, up to three);
/// `d`: one's own; `p`: enemy pieces in the zone; `h`: enemy pieces in hand other than pawns.
pub const KING_DANGER_NAMES: [&str; 6] = ["a*a", "a*h", "p*h", "a*p", "(a-d)+*h", "(a-d)+^2"];
/// Number of parameters.
pub const NUM_PARAMS: usize = KING_DANGER + KING_DANGER_NAMES.len();

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
        _ if i < KP_OWN => ("tempo", String::new()),
        _ if i < KP_ENEMY => ("kp_own", kp_name(i - KP_OWN)),
        _ if i < KING_DANGER => ("kp_enemy", kp_name(i - KP_ENEMY)),
        _ => ("king_danger", KING_DANGER_NAMES[i - KING_DANGER].to_string()),
    }
}

/// `"S f2 r-1"`: a silver two files from the king and one rank behind it.
fn kp_name(j: usize) -> String {
    let (group, cell) = (j / KP_TABLE, j % KP_TABLE);
    let (file, rank) = (cell / KP_RANKS, cell % KP_RANKS);
    format!("{} f{file} r{}", GROUP_NAMES[group], rank as i32 - 8)
}

/// Whether parameter `i` is in 1/16 centipawn (a "fine" group) rather than in centipawns.
pub fn is_fine(i: usize) -> bool {
    (CTRL_OWN..DEFENDED).contains(&i) || i >= KP_OWN
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
            let _ = writeln!(out, "    // {group}");
            // The piece–king tables are long: one line per file distance of one piece group.
            let width = if group.starts_with("kp_") { KP_RANKS } else { j - i };
            for row in self.0[i..j].chunks(width) {
                let values: Vec<String> = row.iter().map(i32::to_string).collect();
                let _ = writeln!(out, "    {},", values.join(", "));
            }
            i = j;
        }
        out.push_str("]);\n");
        out
    }
}

// The embedded weights live in their own file, which `soppo-tools tune-eval --write` rewrites.
pub use super::weights::DEFAULT_PARAMS;
