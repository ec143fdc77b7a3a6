//! Soppo pruning (SS-Cut and DS-Cut) of Matsubara, Hashimoto and Iida (TACOS).
//!
//! "Soppo" (そっぽ) moves go away from where the fight is. In the endgame a quiet move of a
//! slow piece far from both kings rarely matters, so it is not searched.
//!
//! Definitions used here:
//! - **Endgame.** The paper applies the cut only "from the endgame on" and gives no formula.
//!   Here a position is in the endgame when some king is approached: an enemy piece other than
//!   a pawn stands in the king's 5×5 box (within two files and two ranks). Or when the two
//!   hands together hold at least four pieces other than pawns.
//! - **Slow pieces.** Pawn, knight, silver, gold and the promoted minors. The paper leaves out
//!   the fast pieces (lance, bishop, rook, horse, dragon) and the king. Drops of slow kinds
//!   count as moves of slow pieces.
//! - **Candidates.** Only quiet moves are candidates: no capture, no promotion, no check, and
//!   never while in check. Tactics are left alone.
//! - **Distance.** `d` is the king distance (Chebyshev) from the move's target square to the
//!   nearer king. The paper's "target" is the attacked piece or square near the enemy king. We
//!   take the nearer of the two kings so that defensive moves next to one's own king are never
//!   soppo.
//! - **SS-Cut.** A candidate with `d > D` is pruned, `D` fixed (`SoppoDistance`, paper: 5).
//! - **DS-Cut.** The search counts the beta cut-offs caused by candidate moves, by `d`. `D` is
//!   the smallest distance (at least 2) beyond which at most 1 % of those cut-offs happened. It
//!   is recomputed at each iteration, and no move is pruned before 64 cut-offs have been seen.

use soppo_core::attacks::near_box;
use soppo_core::{Color, Move, PieceKind, Position, Square};

/// How the soppo forward pruning runs (`SoppoCut`): off, SS-Cut or DS-Cut.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum SoppoCut {
    Off,
    Static,
    Dynamic,
}

/// Largest king distance on the board.
const MAX_D: usize = 8;
/// Cut-offs needed before DS-Cut trusts its statistics.
const MIN_SAMPLES: u64 = 64;

/// The pruning state of one search.
pub struct Soppo {
    mode: SoppoCut,
    static_limit: u32,
    /// Beta cut-offs by candidate moves, by distance to the nearer king.
    cutoffs: [u64; MAX_D + 1],
    dynamic_limit: Option<u32>,
}

fn king_distance(a: Square, b: Square) -> u32 {
    let df = (a.file().index() as i32 - b.file().index() as i32).unsigned_abs();
    let dr = (a.rank().index() as i32 - b.rank().index() as i32).unsigned_abs();
    df.max(dr)
}

fn is_slow(kind: PieceKind) -> bool {
    !matches!(
        kind,
        PieceKind::Lance | PieceKind::Bishop | PieceKind::Rook | PieceKind::Horse | PieceKind::Dragon | PieceKind::King
    )
}

/// Whether `pos` is in the endgame (see the module documentation).
pub fn is_endgame(pos: &Position) -> bool {
    let hand_pieces: u32 = [Color::Black, Color::White]
        .into_iter()
        .map(|c| {
            let h = pos.hand(c);
            h.total() - h.count(PieceKind::Pawn)
        })
        .sum();
    if hand_pieces >= 4 {
        return true;
    }
    [Color::Black, Color::White].into_iter().any(|c| {
        pos.king_square(c).is_some_and(|k| {
            let enemy = pos.pieces(!c).and_not(pos.pieces_of(!c, PieceKind::Pawn));
            (near_box(k) & enemy).is_nonempty()
        })
    })
}

/// The distance from the target of `m` to the nearer king if `m` is a soppo candidate: a quiet
/// move of a slow piece that gives no check (the caller knows whether it checks).
pub fn candidate_distance(pos: &Position, m: Move, gives_check: bool) -> Option<u32> {
    if gives_check || m.is_promotion() {
        return None;
    }
    let kind = if m.is_drop() {
        m.dropped_kind()
    } else {
        if pos.piece_on(m.to()).is_some() {
            return None;
        }
        pos.piece_on(m.from())?.kind()
    };
    if !is_slow(kind) {
        return None;
    }
    [Color::Black, Color::White]
        .into_iter()
        .filter_map(|c| pos.king_square(c))
        .map(|k| king_distance(m.to(), k))
        .min()
}

impl Soppo {
    pub fn new(mode: SoppoCut, distance: u32) -> Soppo {
        Soppo {
            mode,
            static_limit: distance,
            cutoffs: [0; MAX_D + 1],
            dynamic_limit: None,
        }
    }

    /// Whether the pruning can apply at all (skips the endgame test when it cannot).
    pub fn enabled(&self) -> bool {
        match self.mode {
            SoppoCut::Off => false,
            SoppoCut::Static => true,
            SoppoCut::Dynamic => self.dynamic_limit.is_some(),
        }
    }

    /// Whether DS-Cut statistics are being gathered.
    pub fn gathering(&self) -> bool {
        self.mode == SoppoCut::Dynamic
    }

    /// The distance beyond which candidates are pruned now.
    pub fn limit(&self) -> Option<u32> {
        match self.mode {
            SoppoCut::Off => None,
            SoppoCut::Static => Some(self.static_limit),
            SoppoCut::Dynamic => self.dynamic_limit,
        }
    }

    /// A candidate at distance `d` caused a beta cut-off.
    pub fn record_cutoff(&mut self, d: u32) {
        self.cutoffs[(d as usize).min(MAX_D)] += 1;
    }

    /// Recomputes DS-Cut's `D` from the cut-offs seen so far (call between iterations).
    pub fn refresh(&mut self) {
        if self.mode != SoppoCut::Dynamic {
            return;
        }
        let total: u64 = self.cutoffs.iter().sum();
        if total < MIN_SAMPLES {
            self.dynamic_limit = None;
            return;
        }
        let mut beyond = total;
        self.dynamic_limit = None;
        for d in 0..=MAX_D {
            beyond -= self.cutoffs[d];
            // At most 1 % of the cut-offs happened farther than `d`.
            if d >= 2 && beyond * 100 <= total {
                self.dynamic_limit = (d < MAX_D).then_some(d as u32);
                break;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn endgame_definition() {
        let start = Position::startpos();
        assert!(!is_endgame(&start));
        // A silver next to the enemy king makes it an endgame; a pawn does not.
        assert!(is_endgame(
            &Position::from_sfen("4k4/9/3S5/9/9/9/9/9/4K4 b - 1").unwrap()
        ));
        assert!(!is_endgame(
            &Position::from_sfen("4k4/9/4P4/9/9/9/9/9/4K4 b - 1").unwrap()
        ));
        // Four non-pawn pieces in hand.
        assert!(is_endgame(
            &Position::from_sfen("4k4/9/9/9/9/9/9/9/4K4 b 2G2S 1").unwrap()
        ));
        assert!(!is_endgame(
            &Position::from_sfen("4k4/9/9/9/9/9/9/9/4K4 b 2G9P 1").unwrap()
        ));
    }

    #[test]
    fn candidates_are_quiet_slow_moves_measured_to_the_nearer_king() {
        let pos = Position::from_sfen("4k4/9/9/9/9/9/9/G8/4K4 b SR 1").unwrap();
        // The gold on 9h steps to 9g: four files from Black's king on 5i.
        let m = pos.parse_move("9h9g").unwrap();
        assert_eq!(candidate_distance(&pos, m, false), Some(4));
        assert_eq!(candidate_distance(&pos, m, true), None);
        // A silver drop on 1a is 4 files from White's king and 8 ranks from Black's.
        assert_eq!(
            candidate_distance(&pos, pos.parse_move("S*1a").unwrap(), false),
            Some(4)
        );
        // Rook drops are never candidates.
        assert_eq!(candidate_distance(&pos, pos.parse_move("R*1a").unwrap(), false), None);
    }

    #[test]
    fn dynamic_limit_follows_the_cutoffs() {
        let mut s = Soppo::new(SoppoCut::Dynamic, 5);
        s.refresh();
        assert_eq!(s.limit(), None, "no statistics, no pruning");
        for d in 0..=3 {
            for _ in 0..50 {
                s.record_cutoff(d);
            }
        }
        s.refresh();
        assert_eq!(s.limit(), Some(3));
        // Cut-offs at every distance: nothing is far enough to prune.
        for d in 4..=8 {
            for _ in 0..50 {
                s.record_cutoff(d);
            }
        }
        s.refresh();
        assert_eq!(s.limit(), None);
        assert_eq!(Soppo::new(SoppoCut::Static, 5).limit(), Some(5));
        assert_eq!(Soppo::new(SoppoCut::Off, 5).limit(), None);
    }
}
