//! Which book move to play: YaneuraOu's rules, option for option (read from its source,
//! `book/book.cpp`, and written here anew).
//!
//! In the position's candidates, most played first then best value:
//! 1. moves illegal in the position are dropped (each said in an `info string`);
//! 2. `NarrowBook`: moves played in less than a tenth of the games are dropped;
//! 3. `BookDepthLimit` (0: none): when the first candidate's depth is below it, the book is not
//!    used in this position;
//! 4. moves valued below the first candidate's value less `BookEvalDiff`, or below the side's
//!    floor (`BookEvalBlackLimit` / `BookEvalWhiteLimit`), are dropped;
//! 5. one of the rest is played, each as likely (`ConsiderBookMoveCount`: in proportion to
//!    its count).
//!
//! Before any of that the book is not used past ply `BookMoves`, nor, by chance, in
//! `BookIgnoreRate` percent of the positions; nor at all without `USI_OwnBook`.

use super::format::Candidate;
use soppo_core::rng::SplitMix64;
use soppo_core::{Color, Move, Position};

/// The book options, as YaneuraOu names them and with its defaults (except `BookFile`, whose
/// default here is `no_book`: a match is unchanged unless a book is asked for).
// One field per option: YaneuraOu's check options are independent switches, not states.
#[allow(clippy::struct_excessive_bools)]
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BookSettings {
    /// `USI_OwnBook`.
    pub own_book: bool,
    /// `BookFile`: a file in `BookDir`, or a full path; `no_book` (or empty) for none.
    pub file: String,
    /// `BookDir`: relative from the executable's folder.
    pub dir: String,
    /// `BookMoves`: the last ply (move number) the book is used at.
    pub moves: u32,
    /// `BookIgnoreRate`: the percentage of positions in which the book is ignored.
    pub ignore_rate: u32,
    /// `BookEvalDiff`.
    pub eval_diff: i32,
    /// `BookEvalBlackLimit`, `BookEvalWhiteLimit`.
    pub eval_black_limit: i32,
    pub eval_white_limit: i32,
    /// `BookDepthLimit` (0: none).
    pub depth_limit: i32,
    /// `BookOnTheFly`: keep only the index in memory.
    pub on_the_fly: bool,
    /// `ConsiderBookMoveCount`.
    pub consider_count: bool,
    /// `FlippedBook`.
    pub flipped: bool,
    /// `IgnoreBookPly`.
    pub ignore_ply: bool,
    /// `NarrowBook`.
    pub narrow: bool,
    /// `BookPvMoves`: how long a line the `info` of a book move shows.
    pub pv_moves: u32,
}

/// `BookFile`'s value for no book.
pub const NO_BOOK: &str = "no_book";

impl BookSettings {
    pub const DEFAULT: BookSettings = BookSettings {
        own_book: true,
        file: String::new(),
        dir: String::new(),
        moves: 16,
        ignore_rate: 0,
        eval_diff: 30,
        eval_black_limit: 0,
        eval_white_limit: -140,
        depth_limit: 16,
        on_the_fly: false,
        consider_count: false,
        flipped: true,
        ignore_ply: false,
        narrow: false,
        pv_moves: 8,
    };

    /// The defaults with `BookFile no_book` and `BookDir book`.
    pub fn with_default_names() -> BookSettings {
        BookSettings {
            file: NO_BOOK.to_owned(),
            dir: "book".to_owned(),
            ..BookSettings::DEFAULT
        }
    }

    /// Whether `BookFile` names a book.
    pub fn names_a_book(&self) -> bool {
        let f = self.file.trim();
        !f.is_empty() && f != NO_BOOK
    }
}

/// A candidate that is legal in the position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Legal {
    pub candidate: Candidate,
    pub mv: Move,
}

/// The candidates after the rules: those a move is drawn from (empty: the book is not used
/// here), with what was said about them.
#[derive(Clone, Debug, Default)]
pub struct Filtered {
    /// The legal candidates, in book order.
    pub legal: Vec<Legal>,
    /// Those the move is drawn from, in book order.
    pub eligible: Vec<Legal>,
    /// What the rules dropped and why, one sentence each.
    pub notes: Vec<String>,
}

/// Applies rules 1 to 4 to the candidates of `pos` (in book order).
pub fn filter(pos: &Position, candidates: &[Candidate], s: &BookSettings) -> Filtered {
    let mut out = Filtered::default();
    for c in candidates {
        if pos.is_legal_move(c.mv) {
            out.legal.push(Legal {
                candidate: *c,
                mv: c.mv,
            });
        } else {
            out.notes
                .push(format!("book move {} is illegal in {}: skipped", c.mv, pos.to_sfen()));
        }
    }
    let mut list = out.legal.clone();
    let total: u64 = list.iter().map(|l| l.candidate.count).sum();
    if s.narrow && total > 0 {
        let n = list.len();
        // YaneuraOu: dropped when count / total < 0.1.
        list.retain(|l| l.candidate.count.saturating_mul(10) >= total);
        if list.len() != n {
            out.notes.push(format!("NarrowBook: {n} moves to {}", list.len()));
        }
    }
    let Some(first) = list.first().map(|l| l.candidate) else {
        return out;
    };
    if s.depth_limit != 0 && first.depth < s.depth_limit {
        out.notes.push(format!(
            "BookDepthLimit {}: the first book move's depth is {}; the book is not used here",
            s.depth_limit, first.depth
        ));
        return out;
    }
    let (floor_name, floor) = match pos.side_to_move() {
        Color::Black => ("BookEvalBlackLimit", s.eval_black_limit),
        Color::White => ("BookEvalWhiteLimit", s.eval_white_limit),
    };
    let limit = first.value.saturating_sub(s.eval_diff).max(floor);
    let n = list.len();
    list.retain(|l| l.candidate.value >= limit);
    if list.len() != n {
        out.notes.push(format!(
            "BookEvalDiff {}, {floor_name} {floor}: {n} moves to {}",
            s.eval_diff,
            list.len()
        ));
    }
    out.eligible = list;
    out
}

/// Rule 5: draws the move to play from `eligible` (not empty).
pub fn draw(eligible: &[Legal], consider_count: bool, rng: &mut SplitMix64) -> Legal {
    if consider_count {
        // YaneuraOu treats a book whose counts are all 0 as counting each move once.
        let total: u64 = eligible.iter().map(|l| l.candidate.count).sum();
        let weight = |l: &Legal| if total == 0 { 1 } else { l.candidate.count };
        let sum: u64 = eligible.iter().map(weight).sum();
        let mut point = rng.below(sum.max(1));
        for l in eligible {
            if point < weight(l) {
                return *l;
            }
            point -= weight(l);
        }
    }
    *rng.pick(eligible)
}

/// Whether the book is consulted at all in `pos` (rules before the look-up): `USI_OwnBook`,
/// `BookMoves` and the chance of `BookIgnoreRate`.
pub fn consulted(pos: &Position, s: &BookSettings, rng: &mut SplitMix64) -> bool {
    s.own_book && pos.move_number() <= s.moves && (s.ignore_rate == 0 || rng.below(100) >= u64::from(s.ignore_rate))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cand(mv: &str, value: i32, depth: i32, count: u64) -> Candidate {
        Candidate {
            count,
            value,
            depth,
            mv: Move::from_usi(mv).unwrap(),
            ponder: None,
        }
    }

    fn moves(l: &[Legal]) -> Vec<String> {
        l.iter().map(|l| l.mv.to_string()).collect()
    }

    fn defaults() -> BookSettings {
        BookSettings::with_default_names()
    }

    #[test]
    fn eval_diff_counts_from_the_first_candidate_and_the_sides_floor() {
        let start = Position::startpos();
        let c = [
            cand("7g7f", 50, 16, 1),
            cand("2g2f", 25, 16, 1),
            cand("5g5f", 10, 16, 1),
            cand("1g1f", 90, 16, 1),
        ];
        let f = filter(&start, &c, &defaults());
        // Limit max(50 - 30, 0) = 20: 5g5f goes; 1g1f, better than the first, stays.
        assert_eq!(moves(&f.eligible), ["7g7f", "2g2f", "1g1f"]);
        assert_eq!(f.notes.len(), 1, "{:?}", f.notes);
        // Black's floor 0 removes even the first candidate.
        let f = filter(&start, &[cand("7g7f", -5, 16, 1)], &defaults());
        assert!(f.eligible.is_empty());
        assert_eq!(f.legal.len(), 1);
        // White's floor is -140.
        let white = Position::from_usi_moves(None, &["7g7f"]).unwrap();
        let f = filter(
            &white,
            &[cand("3c3d", -100, 16, 1), cand("8c8d", -141, 16, 1)],
            &defaults(),
        );
        assert_eq!(moves(&f.eligible), ["3c3d"]);
    }

    #[test]
    fn a_shallow_first_candidate_leaves_the_book_unused_here() {
        let start = Position::startpos();
        let c = [cand("7g7f", 50, 15, 1), cand("2g2f", 50, 30, 1)];
        assert!(filter(&start, &c, &defaults()).eligible.is_empty());
        let none = BookSettings {
            depth_limit: 0,
            ..defaults()
        };
        assert_eq!(filter(&start, &c, &none).eligible.len(), 2);
    }

    #[test]
    fn illegal_moves_go_first_then_narrow_book() {
        let start = Position::startpos();
        let c = [
            cand("7g7e", 99, 16, 50),
            cand("7g7f", 40, 16, 95),
            cand("2g2f", 40, 16, 5),
        ];
        let f = filter(&start, &c, &defaults());
        assert_eq!(moves(&f.legal), ["7g7f", "2g2f"]);
        assert!(f.notes[0].contains("7g7e is illegal"), "{:?}", f.notes);
        let narrow = BookSettings {
            narrow: true,
            ..defaults()
        };
        assert_eq!(moves(&filter(&start, &c, &narrow).eligible), ["7g7f"]);
    }

    #[test]
    fn draws_cover_the_set_and_follow_the_counts() {
        let start = Position::startpos();
        let c = [cand("7g7f", 40, 16, 9), cand("2g2f", 40, 16, 1)];
        let f = filter(&start, &c, &defaults());
        let mut rng = SplitMix64::new(7);
        let mut seen = [0u32; 2];
        for _ in 0..2000 {
            seen[usize::from(draw(&f.eligible, false, &mut rng).mv.to_string() == "2g2f")] += 1;
        }
        assert!(seen.iter().all(|&n| (850..1150).contains(&n)), "{seen:?}");
        let mut seen = [0u32; 2];
        for _ in 0..2000 {
            seen[usize::from(draw(&f.eligible, true, &mut rng).mv.to_string() == "2g2f")] += 1;
        }
        assert!((100..300).contains(&seen[1]), "{seen:?}");
    }

    #[test]
    fn book_moves_and_the_ignore_rate() {
        let mut rng = SplitMix64::new(1);
        let s = defaults();
        assert!(consulted(&Position::startpos(), &s, &mut rng));
        let ply17 = Position::from_sfen("lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 17").unwrap();
        assert!(!consulted(&ply17, &s, &mut rng));
        let off = BookSettings {
            own_book: false,
            ..defaults()
        };
        assert!(!consulted(&Position::startpos(), &off, &mut rng));
        let always = BookSettings {
            ignore_rate: 100,
            ..defaults()
        };
        assert!(!consulted(&Position::startpos(), &always, &mut rng));
        let half = BookSettings {
            ignore_rate: 50,
            ..defaults()
        };
        let used = (0..1000)
            .filter(|_| consulted(&Position::startpos(), &half, &mut rng))
            .count();
        assert!((400..600).contains(&used), "{used}");
    }
}
