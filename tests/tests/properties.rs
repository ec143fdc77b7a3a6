//! Property tests of the rules core.
//!
//! Positions come from random legal games (driven by a proptest vector of choices, biased
//! towards checks, captures, pawn drops and promotions) from several starts: the even start,
//! handicap starts with White to move, tsume-style starts where only the defender has a king,
//! the 593-move position and starts with big hands. Every fast path of the core is compared
//! with a slow path: the core's own `is_legal_slow` and, independently of the core's attack
//! tables, a naive rules implementation written here ([`naive`]).

use proptest::prelude::*;
use soppo_core::movegen::{self, MoveList};
use soppo_core::rng::SplitMix64;
use soppo_core::types::PieceKind;
use soppo_core::{Bitboard, Color, Move, Position, Square};
use std::collections::HashSet;

// ----- starts and random games ---------------------------------------------------------------

/// A start position and how strongly the random game prefers checking moves (out of 16).
struct Start {
    sfen: &'static str,
    check_bias: u32,
}

const STARTS: [Start; 12] = [
    Start {
        sfen: "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
        check_bias: 2,
    },
    // Two-piece, lance and bishop handicaps: White moves first.
    Start {
        sfen: "lnsgkgsnl/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
        check_bias: 2,
    },
    Start {
        sfen: "lnsgkgsn1/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
        check_bias: 2,
    },
    Start {
        sfen: "lnsgkgsnl/1r7/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
        check_bias: 3,
    },
    // Tsume style: only White has a king, Black holds every other piece.
    Start {
        sfen: "4k4/9/9/9/9/9/9/9/9 b 2R2B4G4S4N4L18P 1",
        check_bias: 10,
    },
    // The position with the most legal moves known (593).
    Start {
        sfen: "R8/2K1S1SSk/4B4/9/9/9/9/9/1L1L1L3 b RBGSNLP3g3n17p 1",
        check_bias: 4,
    },
    // Pawns in hand: nifu and pawn-drop situations everywhere.
    Start {
        sfen: "lnsgkgsnl/1r5b1/9/9/9/9/9/1B5R1/LNSGKGSNL b 9P9p 1",
        check_bias: 3,
    },
    // Everything in hand.
    Start {
        sfen: "4k4/9/9/9/9/9/9/9/4K4 b RB2G2S2N2L9Prb2g2s2n2l9p 1",
        check_bias: 4,
    },
    // Tsume style with the defender in the corner behind its own pieces (mates in one).
    Start {
        sfen: "7nl/7k1/6ppp/9/9/9/9/9/9 b 2R2B4G4S3N3L15P 1",
        check_bias: 12,
    },
    // Two kings, the defender in the corner, the attacker with a big hand.
    Start {
        sfen: "6snk/6gpl/6p2/9/9/9/9/9/K8 b 2R2B3G3S3N3L16P 1",
        check_bias: 10,
    },
    // Sliders lined up behind own pieces: discovered and double checks.
    Start {
        sfen: "4k4/9/2N6/9/B3S4/9/4R4/9/4K4 b G2g2s2n3l17p 1",
        check_bias: 8,
    },
    // A middle game.
    Start {
        sfen: "ln1g3nl/1r1s1kg2/p2ppp1pp/2p3p2/1p5P1/2P1P1P2/PPBP1P2P/2G1S2R1/LN2KG1NL b Bs 1",
        check_bias: 3,
    },
];

fn start_position(i: usize) -> Position {
    Position::from_sfen(STARTS[i].sfen).unwrap_or_else(|e| panic!("start {i} `{}`: {e}", STARTS[i].sfen))
}

fn is_capture(pos: &Position, m: Move) -> bool {
    !m.is_drop() && pos.piece_on(m.to()).is_some()
}

fn is_pawn_promotion(pos: &Position, m: Move) -> bool {
    !m.is_drop() && m.is_promotion() && pos.piece_on(m.from()).is_some_and(|p| p.kind() == PieceKind::Pawn)
}

/// Picks a legal move from `legal` (non-empty) with the choice `c`: the low four bits pick a
/// category (checks, captures, pawn drops, promotions or any move), the rest the move.
fn choose(pos: &Position, legal: &[Move], c: u32, check_bias: u32) -> Move {
    let r = c % 16;
    let pool: Vec<Move> = if r < check_bias {
        let checks: Vec<Move> = legal.iter().copied().filter(|&m| pos.gives_check(m)).collect();
        // A quarter of the time prefer double checks, which uniform choice rarely finds.
        let double: Vec<Move> = if (c >> 4).is_multiple_of(4) {
            checks
                .iter()
                .copied()
                .filter(|&m| {
                    let mut after = pos.clone();
                    after.do_move(m);
                    after.checkers().has_more_than_one()
                })
                .collect()
        } else {
            Vec::new()
        };
        if double.is_empty() { checks } else { double }
    } else if r < check_bias + 2 {
        legal.iter().copied().filter(|&m| is_capture(pos, m)).collect()
    } else if r == check_bias + 2 {
        legal
            .iter()
            .copied()
            .filter(|&m| m.is_drop() && m.dropped_kind() == PieceKind::Pawn)
            .collect()
    } else if r == check_bias + 3 {
        legal.iter().copied().filter(|&m| m.is_promotion()).collect()
    } else {
        Vec::new()
    };
    let pool = if pool.is_empty() { legal } else { &pool[..] };
    pool[(c >> 6) as usize % pool.len()]
}

/// Plays a random game from start `start`, calling `visit` on the start position and after
/// every move (with the number of plies played). Stops early at a position with no legal move.
fn walk(start: usize, choices: &[u32], mut visit: impl FnMut(&mut Position, usize)) -> Position {
    let mut pos = start_position(start);
    visit(&mut pos, 0);
    for (ply, &c) in choices.iter().enumerate() {
        let legal = pos.legal_moves();
        if legal.is_empty() {
            break;
        }
        let m = choose(&pos, &legal, c, STARTS[start].check_bias);
        pos.do_move(m);
        visit(&mut pos, ply + 1);
    }
    pos
}

fn game() -> impl Strategy<Value = (usize, Vec<u32>)> {
    (0..STARTS.len(), prop::collection::vec(any::<u32>(), 0..=120))
}

// ----- set helpers ---------------------------------------------------------------------------

fn generate(pos: &Position, f: fn(&Position, &mut MoveList)) -> MoveList {
    let mut list = MoveList::new();
    f(pos, &mut list);
    list
}

fn texts<'a>(moves: impl Iterator<Item = &'a Move>) -> Vec<String> {
    let mut v: Vec<String> = moves.map(ToString::to_string).collect();
    v.sort();
    v
}

/// Asserts that `list` has no duplicates and returns it as a set.
fn distinct(what: &str, pos: &Position, list: &[Move]) -> HashSet<Move> {
    let set: HashSet<Move> = list.iter().copied().collect();
    if set.len() != list.len() {
        let mut seen = HashSet::new();
        let dups: Vec<Move> = list.iter().copied().filter(|m| !seen.insert(*m)).collect();
        panic!("{what}: duplicate moves {dups:?} in {}", pos.to_sfen());
    }
    set
}

fn assert_same(what: &str, pos: &Position, got: &HashSet<Move>, want: &HashSet<Move>) {
    assert!(
        got == want,
        "{what} in {}: unexpected {:?}, missing {:?}",
        pos.to_sfen(),
        texts(got.difference(want)),
        texts(want.difference(got)),
    );
}

// ----- an independent, naive implementation of the rules ------------------------------------

/// The rules of shogi written as plainly as possible, sharing nothing with the core but the
/// square and piece types: direction tables, a mailbox board and "play it and look".
mod naive {
    use soppo_core::types::PieceKind;
    use soppo_core::{Color, Move, Position, Square};

    type Dirs = &'static [(i8, i8)];

    // (file delta, rank delta) for Black; rank 0 is Black's far side, so forward is -1.
    const KING: Dirs = &[(-1, -1), (0, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (0, 1), (1, 1)];
    const DIAGONAL: Dirs = &[(-1, -1), (1, -1), (-1, 1), (1, 1)];
    const ORTHOGONAL: Dirs = &[(0, -1), (-1, 0), (1, 0), (0, 1)];
    const GOLD: Dirs = &[(-1, -1), (0, -1), (1, -1), (-1, 0), (1, 0), (0, 1)];
    const SILVER: Dirs = &[(-1, -1), (0, -1), (1, -1), (-1, 1), (1, 1)];
    const KNIGHT: Dirs = &[(-1, -2), (1, -2)];
    const FORWARD: Dirs = &[(0, -1)];

    /// (steps, slides) of a kind, for Black.
    fn movement(kind: PieceKind) -> (Dirs, Dirs) {
        match kind {
            PieceKind::Pawn => (FORWARD, &[]),
            PieceKind::Lance => (&[], FORWARD),
            PieceKind::Knight => (KNIGHT, &[]),
            PieceKind::Silver => (SILVER, &[]),
            PieceKind::Gold
            | PieceKind::ProPawn
            | PieceKind::ProLance
            | PieceKind::ProKnight
            | PieceKind::ProSilver => (GOLD, &[]),
            PieceKind::King => (KING, &[]),
            PieceKind::Bishop => (&[], DIAGONAL),
            PieceKind::Rook => (&[], ORTHOGONAL),
            PieceKind::Horse => (ORTHOGONAL, DIAGONAL),
            PieceKind::Dragon => (DIAGONAL, ORTHOGONAL),
        }
    }

    fn promoted(kind: PieceKind) -> PieceKind {
        match kind {
            PieceKind::Pawn => PieceKind::ProPawn,
            PieceKind::Lance => PieceKind::ProLance,
            PieceKind::Knight => PieceKind::ProKnight,
            PieceKind::Silver => PieceKind::ProSilver,
            PieceKind::Bishop => PieceKind::Horse,
            PieceKind::Rook => PieceKind::Dragon,
            k => k,
        }
    }

    fn unpromoted(kind: PieceKind) -> PieceKind {
        match kind {
            PieceKind::ProPawn => PieceKind::Pawn,
            PieceKind::ProLance => PieceKind::Lance,
            PieceKind::ProKnight => PieceKind::Knight,
            PieceKind::ProSilver => PieceKind::Silver,
            PieceKind::Horse => PieceKind::Bishop,
            PieceKind::Dragon => PieceKind::Rook,
            k => k,
        }
    }

    fn promotable(kind: PieceKind) -> bool {
        matches!(
            kind,
            PieceKind::Pawn
                | PieceKind::Lance
                | PieceKind::Knight
                | PieceKind::Silver
                | PieceKind::Bishop
                | PieceKind::Rook
        )
    }

    /// The rank as `c` sees it: 0 is the rank farthest from `c`.
    fn relative_rank(c: Color, sq: Square) -> usize {
        let r = sq.index() % 9;
        if c == Color::Black { r } else { 8 - r }
    }

    fn in_zone(c: Color, sq: Square) -> bool {
        relative_rank(c, sq) < 3
    }

    /// Whether a `kind` piece of `c` standing on `sq` could never move again.
    fn dead(c: Color, kind: PieceKind, sq: Square) -> bool {
        match kind {
            PieceKind::Pawn | PieceKind::Lance => relative_rank(c, sq) == 0,
            PieceKind::Knight => relative_rank(c, sq) <= 1,
            _ => false,
        }
    }

    fn sq(i: usize) -> Square {
        Square::new(i as u8).expect("square index")
    }

    #[derive(Clone)]
    pub struct Board {
        cells: [Option<(Color, PieceKind)>; 81],
        hands: [[u8; 8]; 2],
        side: Color,
    }

    impl Board {
        pub fn of(pos: &Position) -> Board {
            let mut cells = [None; 81];
            for s in Square::all() {
                cells[s.index()] = pos.piece_on(s).map(|p| (p.color(), p.kind()));
            }
            let mut hands = [[0u8; 8]; 2];
            for c in [Color::Black, Color::White] {
                for k in PieceKind::HAND {
                    hands[c as usize][k as usize] = pos.hand(c).count(k) as u8;
                }
            }
            Board {
                cells,
                hands,
                side: pos.side_to_move(),
            }
        }

        fn king(&self, c: Color) -> Option<Square> {
            (0..81)
                .map(sq)
                .find(|s| self.cells[s.index()] == Some((c, PieceKind::King)))
        }

        /// Squares the piece on `from` attacks.
        fn attacks(&self, from: Square) -> Vec<Square> {
            let Some((c, kind)) = self.cells[from.index()] else {
                return Vec::new();
            };
            let sign: i8 = if c == Color::Black { 1 } else { -1 };
            let (steps, slides) = movement(kind);
            let mut out = Vec::new();
            for &(df, dr) in steps {
                if let Some(t) = from.offset(df * sign, dr * sign) {
                    out.push(t);
                }
            }
            for &(df, dr) in slides {
                let mut cur = from;
                while let Some(t) = cur.offset(df * sign, dr * sign) {
                    out.push(t);
                    if self.cells[t.index()].is_some() {
                        break;
                    }
                    cur = t;
                }
            }
            out
        }

        /// The pieces of `by` attacking `target`.
        pub fn attackers(&self, by: Color, target: Square) -> Vec<Square> {
            (0..81)
                .map(sq)
                .filter(|&s| self.cells[s.index()].is_some_and(|(c, _)| c == by) && self.attacks(s).contains(&target))
                .collect()
        }

        fn attacked(&self, by: Color, target: Square) -> bool {
            !self.attackers(by, target).is_empty()
        }

        /// The checkers of the side to move.
        pub fn checkers(&self) -> Vec<Square> {
            match self.king(self.side) {
                Some(k) => self.attackers(!self.side, k),
                None => Vec::new(),
            }
        }

        /// The board after `m` (assumed to follow the movement rules).
        pub fn play(&self, m: Move) -> Board {
            let mut b = self.clone();
            let us = self.side;
            if m.is_drop() {
                let k = m.dropped_kind();
                b.hands[us as usize][k as usize] -= 1;
                b.cells[m.to().index()] = Some((us, k));
            } else {
                let (c, kind) = b.cells[m.from().index()].take().expect("a piece to move");
                if let Some((_, cap)) = b.cells[m.to().index()] {
                    b.hands[us as usize][unpromoted(cap) as usize] += 1;
                }
                let kind = if m.is_promotion() { promoted(kind) } else { kind };
                b.cells[m.to().index()] = Some((c, kind));
            }
            b.side = !us;
            b
        }

        /// Every move obeying the movement, promotion and drop rules (king safety ignored).
        fn pseudo_legal(&self) -> Vec<Move> {
            let us = self.side;
            let mut out = Vec::new();
            for from in (0..81).map(sq) {
                let Some((c, kind)) = self.cells[from.index()] else {
                    continue;
                };
                if c != us {
                    continue;
                }
                for to in self.attacks(from) {
                    if self.cells[to.index()].is_some_and(|(tc, _)| tc == us) {
                        continue;
                    }
                    if promotable(kind) && (in_zone(us, from) || in_zone(us, to)) {
                        out.push(Move::normal(from, to, true));
                    }
                    if !dead(us, kind, to) {
                        out.push(Move::normal(from, to, false));
                    }
                }
            }
            for kind in PieceKind::HAND {
                if self.hands[us as usize][kind as usize] == 0 {
                    continue;
                }
                for to in (0..81).map(sq) {
                    if self.cells[to.index()].is_some() || dead(us, kind, to) {
                        continue;
                    }
                    if kind == PieceKind::Pawn {
                        let file = to.index() / 9;
                        let nifu = (0..9).any(|r| self.cells[file * 9 + r] == Some((us, PieceKind::Pawn)));
                        if nifu {
                            continue;
                        }
                    }
                    out.push(Move::drop(kind, to));
                }
            }
            out
        }

        /// Whether the mover's king is unattacked after `m`.
        fn safe_after(&self, m: Move) -> bool {
            let after = self.play(m);
            after.king(self.side).is_none_or(|k| !after.attacked(!self.side, k))
        }

        /// Whether `m` (legal) leaves the opponent's king attacked.
        pub fn gives_check(&self, m: Move) -> bool {
            let after = self.play(m);
            after.king(after.side).is_some_and(|k| after.attacked(self.side, k))
        }

        /// The legal moves: pseudo-legal, king safe, and no pawn drop that mates.
        pub fn legal(&self) -> Vec<Move> {
            self.pseudo_legal()
                .into_iter()
                .filter(|&m| self.safe_after(m))
                .filter(|&m| {
                    if !(m.is_drop() && m.dropped_kind() == PieceKind::Pawn && self.gives_check(m)) {
                        return true;
                    }
                    // Pawn-drop mate: the checked side has no move that saves its king.
                    let after = self.play(m);
                    after.pseudo_legal().into_iter().any(|r| after.safe_after(r))
                })
                .collect()
        }
    }
}

// ----- per-position checks -------------------------------------------------------------------

/// The incremental keys agree with a recomputation and the key is the two halves combined.
fn check_keys(pos: &Position) {
    assert_eq!(
        pos.compute_keys(),
        (pos.board_key(), pos.hand_key()),
        "keys of {}",
        pos.to_sfen()
    );
    assert_eq!(pos.key(), pos.board_key() ^ pos.hand_key());
}

/// Checkers agree with the naive attack test.
fn check_checkers(pos: &Position, board: &naive::Board) {
    let mut want = Bitboard::EMPTY;
    for s in board.checkers() {
        want.set(s);
    }
    assert_eq!(pos.checkers(), want, "checkers of {}", pos.to_sfen());
    assert_eq!(pos.in_check(), want.is_nonempty());
}

/// Everything that can be compared cheaply about two positions that should be identical.
#[derive(Debug, PartialEq, Eq)]
struct Snapshot {
    sfen: String,
    key: u64,
    board_key: u64,
    hand_key: u64,
    checkers: Bitboard,
    pinned: [Bitboard; 2],
    plies: usize,
    last_move: Option<Move>,
}

impl Snapshot {
    fn of(pos: &Position) -> Snapshot {
        Snapshot {
            sfen: pos.to_sfen(),
            key: pos.key(),
            board_key: pos.board_key(),
            hand_key: pos.hand_key(),
            checkers: pos.checkers(),
            pinned: [pos.pinned(Color::Black), pos.pinned(Color::White)],
            plies: pos.plies_played(),
            last_move: pos.last_move(),
        }
    }
}

/// (c) The legal list passes `is_legal_slow` move by move, and (on samples) equals both the
/// brute-force set over every board move and drop and the naive implementation's set.
fn check_legal_list(pos: &Position, brute_force: bool) {
    let legal = pos.legal_moves();
    let legal_set = distinct("legal_moves", pos, &legal);
    for &m in &legal {
        assert!(
            pos.is_legal_slow(m),
            "{m} listed but not is_legal_slow in {}",
            pos.to_sfen()
        );
        assert!(
            pos.is_pseudo_legal(m) && pos.is_legal(m),
            "{m} listed but not is_legal in {}",
            pos.to_sfen()
        );
    }
    if !brute_force {
        return;
    }
    let mut brute = HashSet::new();
    for from in Square::all() {
        for to in Square::all() {
            if from == to {
                continue;
            }
            for promote in [false, true] {
                let m = Move::normal(from, to, promote);
                if pos.is_legal_slow(m) {
                    brute.insert(m);
                }
            }
        }
    }
    for kind in PieceKind::HAND {
        for to in Square::all() {
            let m = Move::drop(kind, to);
            if pos.is_legal_slow(m) {
                brute.insert(m);
            }
        }
    }
    assert_same("legal_moves vs brute force by is_legal_slow", pos, &legal_set, &brute);
    let board = naive::Board::of(pos);
    let reference = board.legal();
    let reference = distinct("naive legal", pos, &reference);
    assert_same("legal_moves vs naive rules", pos, &legal_set, &reference);
}

/// (d) Staged generation: captures, quiets and drops partition the pseudo-legal moves and,
/// filtered by `is_legal`, give the legal set; evasions equal the legal set in check.
fn check_stages<const ALL: bool>(pos: &Position) {
    let legal = generate(pos, movegen::generate_legal::<ALL>);
    let legal_set = distinct("generate_legal", pos, &legal);
    assert_eq!(movegen::count_legal::<ALL>(pos), legal.len());
    if pos.in_check() {
        let evasions = generate(pos, movegen::generate_evasions::<ALL>);
        let evasions = distinct("generate_evasions", pos, &evasions);
        assert_same("generate_evasions vs generate_legal", pos, &evasions, &legal_set);
        return;
    }
    let captures = generate(pos, movegen::generate_captures::<ALL>);
    let quiets = generate(pos, movegen::generate_quiets::<ALL>);
    let drops = generate(pos, movegen::generate_drops);
    let cap_set = distinct("generate_captures", pos, &captures);
    let quiet_set = distinct("generate_quiets", pos, &quiets);
    let drop_set = distinct("generate_drops", pos, &drops);
    let sfen = pos.to_sfen();
    for &m in &captures {
        assert!(pos.is_pseudo_legal(m), "capture stage {m} not pseudo-legal in {sfen}");
        assert!(
            is_capture(pos, m) || is_pawn_promotion(pos, m),
            "capture stage {m} is neither a capture nor a pawn promotion in {sfen}"
        );
    }
    for &m in &quiets {
        assert!(pos.is_pseudo_legal(m), "quiet stage {m} not pseudo-legal in {sfen}");
        assert!(
            !m.is_drop() && !is_capture(pos, m) && !is_pawn_promotion(pos, m),
            "quiet stage {m} is a drop, capture or pawn promotion in {sfen}"
        );
    }
    for &m in &drops {
        assert!(m.is_drop(), "drop stage {m} is not a drop in {sfen}");
        assert!(pos.is_legal_move(m), "drop stage {m} not legal in {sfen}");
    }
    assert!(cap_set.is_disjoint(&quiet_set), "captures and quiets overlap in {sfen}");
    let union: HashSet<Move> = cap_set.iter().chain(&quiet_set).chain(&drop_set).copied().collect();
    let filtered: HashSet<Move> = union.iter().copied().filter(|&m| pos.is_legal(m)).collect();
    assert_same(
        "staged union filtered by is_legal vs generate_legal",
        pos,
        &filtered,
        &legal_set,
    );
    let non_evasions = generate(pos, movegen::generate_non_evasions::<ALL>);
    let non_evasions = distinct("generate_non_evasions", pos, &non_evasions);
    assert_same("generate_non_evasions vs staged union", pos, &non_evasions, &union);
}

/// (d) `ALL = false` drops exactly the non-promotions of pawns, bishops and rooks that could
/// have promoted.
fn check_all_flag(pos: &Position) {
    let all = distinct(
        "generate_legal::<true>",
        pos,
        &generate(pos, movegen::generate_legal::<true>),
    );
    let some = distinct(
        "generate_legal::<false>",
        pos,
        &generate(pos, movegen::generate_legal::<false>),
    );
    let want: HashSet<Move> = all
        .iter()
        .copied()
        .filter(|&m| {
            let declined = !m.is_drop()
                && !m.is_promotion()
                && all.contains(&Move::normal(m.from(), m.to(), true))
                && pos
                    .piece_on(m.from())
                    .is_some_and(|p| matches!(p.kind(), PieceKind::Pawn | PieceKind::Bishop | PieceKind::Rook));
            !declined
        })
        .collect();
    assert_same(
        "generate_legal::<false> vs legal minus declined promotions",
        pos,
        &some,
        &want,
    );
}

/// (e) Check generation against the legal list filtered by `gives_check`, and `gives_check`
/// against the naive truth.
fn check_checks(pos: &Position) {
    let board = naive::Board::of(pos);
    let legal = pos.legal_moves();
    for &m in &legal {
        assert_eq!(
            pos.gives_check(m),
            board.gives_check(m),
            "gives_check({m}) in {}",
            pos.to_sfen()
        );
    }
    let want: HashSet<Move> = legal.iter().copied().filter(|&m| pos.gives_check(m)).collect();
    let checks = distinct(
        "generate_checks::<true>",
        pos,
        &generate(pos, movegen::generate_checks::<true>),
    );
    assert_same("generate_checks::<true> vs legal checking moves", pos, &checks, &want);

    let legal_some = generate(pos, movegen::generate_legal::<false>);
    let want_some: HashSet<Move> = legal_some.iter().copied().filter(|&m| pos.gives_check(m)).collect();
    let checks_some = distinct(
        "generate_checks::<false>",
        pos,
        &generate(pos, movegen::generate_checks::<false>),
    );
    assert_same(
        "generate_checks::<false> vs legal::<false> checking moves",
        pos,
        &checks_some,
        &want_some,
    );

    for (all_checks, quiet_fn, name) in [
        (
            &checks,
            movegen::generate_quiet_checks::<true> as fn(&Position, &mut MoveList),
            "generate_quiet_checks::<true>",
        ),
        (
            &checks_some,
            movegen::generate_quiet_checks::<false>,
            "generate_quiet_checks::<false>",
        ),
    ] {
        let quiet = distinct(name, pos, &generate(pos, quiet_fn));
        let want_quiet: HashSet<Move> = all_checks
            .iter()
            .copied()
            .filter(|&m| !is_capture(pos, m) && !is_pawn_promotion(pos, m))
            .collect();
        assert!(
            quiet.is_subset(all_checks),
            "{name} not a subset of the checks in {}",
            pos.to_sfen()
        );
        assert_same(
            &format!("{name} vs checks minus captures and pawn promotions"),
            pos,
            &quiet,
            &want_quiet,
        );
    }
}

/// (f) Mate in one against brute force; `has_evasion` against the legal list.
fn check_mate_in_one(pos: &mut Position) {
    let before = Snapshot::of(pos);
    let legal = pos.legal_moves();
    assert_eq!(pos.has_evasion(), !legal.is_empty(), "has_evasion in {}", pos.to_sfen());
    assert_eq!(pos.is_checkmate(), pos.in_check() && legal.is_empty());
    let mut mating = Vec::new();
    for &m in &legal {
        pos.do_move(m);
        if pos.is_checkmate() {
            mating.push(m);
        }
        pos.undo_move(m);
    }
    let found = pos.mate_in_one();
    assert_eq!(Snapshot::of(pos), before, "mate_in_one changed the position");
    match found {
        Some(m) => {
            assert!(
                legal.contains(&m),
                "mate_in_one returned illegal {m} in {}",
                before.sfen
            );
            assert!(
                mating.contains(&m),
                "mate_in_one returned {m}, which does not mate, in {}",
                before.sfen
            );
            assert!(
                !(m.is_drop() && m.dropped_kind() == PieceKind::Pawn),
                "pawn-drop mate {m} returned"
            );
        }
        None => assert!(
            mating.is_empty(),
            "mate_in_one found nothing in {} but {mating:?} mate",
            before.sfen
        ),
    }
}

/// (g) Every 16-bit pattern: no panic, and `is_legal_move` ⇔ membership of the legal list.
fn check_raw_moves(pos: &Position) {
    let legal = pos.legal_moves();
    let mut is_listed = vec![false; 1 << 16];
    for &m in &legal {
        assert_eq!(Move::from_raw(m.raw()), Some(m));
        is_listed[m.raw() as usize] = true;
        let text = m.to_string();
        assert_eq!(Move::from_usi(&text), Ok(m), "USI text {text}");
        assert_eq!(pos.parse_move(&text), Ok(m), "parse_move({text}) in {}", pos.to_sfen());
    }
    for raw in 0..=u16::MAX {
        let Some(m) = Move::from_raw(raw) else { continue };
        assert_eq!(m.raw(), raw);
        let pseudo = pos.is_pseudo_legal(m);
        let legal = pos.is_legal_move(m);
        assert_eq!(
            legal,
            is_listed[raw as usize],
            "is_legal_move({m}) (raw {raw:#06x}) in {}",
            pos.to_sfen()
        );
        assert!(!legal || pseudo);
    }
}

/// (h) SFEN round trip.
fn check_sfen_round_trip(pos: &Position) {
    let sfen = pos.to_sfen();
    let back = Position::from_sfen(&sfen).unwrap_or_else(|e| panic!("own SFEN `{sfen}` rejected: {e}"));
    assert_eq!(&back, pos, "{sfen}");
    assert_eq!(back.to_sfen(), sfen);
    assert_eq!(
        (back.key(), back.board_key(), back.hand_key()),
        (pos.key(), pos.board_key(), pos.hand_key())
    );
    assert_eq!(back.checkers(), pos.checkers());
    assert_eq!(back.pinned(Color::Black), pos.pinned(Color::Black));
    assert_eq!(back.pinned(Color::White), pos.pinned(Color::White));
    assert_eq!(back.move_number(), pos.move_number());
}

/// `cases` cases, no regression files (the minimal failing input is printed instead).
fn config(cases: u32) -> ProptestConfig {
    ProptestConfig {
        cases,
        max_shrink_iters: 4096,
        failure_persistence: None,
        ..ProptestConfig::default()
    }
}

proptest! {
    #![proptest_config(config(4000))]

    /// (a), (b) Keys after every move equal a recomputation; undoing each move (and null
    /// moves, made when not in check) restores SFEN, keys, checkers and pins, both at once
    /// and when the whole game is taken back.
    #[test]
    fn do_undo_restores_everything((start, choices) in game()) {
        let mut pos = start_position(start);
        let mut trail: Vec<(Option<Move>, Snapshot)> = Vec::new();
        for &c in &choices {
            let snap = Snapshot::of(&pos);
            let side = pos.side_to_move();
            check_keys(&pos);
            if c >> 29 == 7 && !pos.in_check() {
                pos.do_null_move();
                check_keys(&pos);
                assert_eq!(pos.side_to_move(), !side);
                assert_ne!(pos.board_key(), snap.board_key, "a null move must change the key");
                assert_eq!(pos.hand_key(), snap.hand_key);
                assert!(!pos.in_check(), "in check after a null move in {}", snap.sfen);
                pos.undo_null_move();
                assert_eq!(Snapshot::of(&pos), snap, "undo_null_move");
                pos.do_null_move();
                trail.push((None, snap));
                continue;
            }
            let legal = pos.legal_moves();
            if legal.is_empty() {
                break;
            }
            let m = choose(&pos, &legal, c, STARTS[start].check_bias);
            let predicted = pos.key_after(m);
            pos.do_move(m);
            check_keys(&pos);
            assert_eq!(pos.key(), predicted, "key_after({m}) in {}", snap.sfen);
            assert_eq!(pos.last_move(), Some(m));
            pos.undo_move(m);
            assert_eq!(Snapshot::of(&pos), snap, "undo_move({m}) right after do_move");
            pos.do_move(m);
            trail.push((Some(m), snap));
        }
        while let Some((m, snap)) = trail.pop() {
            match m {
                Some(m) => pos.undo_move(m),
                None => pos.undo_null_move(),
            }
            assert_eq!(Snapshot::of(&pos), snap, "taking back {m:?}");
        }
        assert_eq!(pos.plies_played(), 0);
    }

    /// (f) Mate in one.
    #[test]
    fn mate_in_one_matches_brute_force((start, choices) in game()) {
        walk(start, &choices, |pos, _| check_mate_in_one(pos));
    }
}

proptest! {
    #![proptest_config(config(2000))]

    /// (b), (c), (h) Along the game: keys, checkers against the naive attack test, the legal
    /// list against `is_legal_slow` (every position) and against brute force and the naive
    /// rules (every eighth position and the last), SFEN round trip.
    #[test]
    fn legal_list_matches_slow_and_naive_rules((start, choices) in game()) {
        let end = walk(start, &choices, |pos, ply| {
            check_keys(pos);
            check_checkers(pos, &naive::Board::of(pos));
            check_legal_list(pos, ply % 8 == 3);
            check_sfen_round_trip(pos);
        });
        check_legal_list(&end, true);
    }

    /// (d) Staged generation.
    #[test]
    fn staged_generation_matches_legal((start, choices) in game()) {
        walk(start, &choices, |pos, _| {
            check_stages::<true>(pos);
            check_stages::<false>(pos);
            check_all_flag(pos);
        });
    }

    /// (e) Check generation and `gives_check`.
    #[test]
    fn check_generation_matches_gives_check((start, choices) in game()) {
        walk(start, &choices, |pos, _| check_checks(pos));
    }
}

proptest! {
    #![proptest_config(config(1000))]

    /// (g) Raw 16-bit moves on every sixteenth position and the last.
    #[test]
    fn raw_moves_never_panic_and_match_legal_list((start, choices) in game()) {
        let end = walk(start, &choices, |pos, ply| {
            if ply % 16 == 5 {
                check_raw_moves(pos);
            }
        });
        check_raw_moves(&end);
    }
}

// ----- (i) text that is not SFEN or USI ------------------------------------------------------

/// Whatever `from_sfen` accepts must be a working position.
fn exercise_sfen(text: &str) {
    match Position::from_sfen(text) {
        Err(e) => assert!(!e.to_string().is_empty(), "empty error message for `{text}`"),
        Ok(mut pos) => {
            check_keys(&pos);
            check_sfen_round_trip(&pos);
            let legal = pos.legal_moves();
            for &m in &legal {
                pos.do_move(m);
                check_keys(&pos);
                pos.undo_move(m);
            }
            let _ = pos.mate_in_one();
            let _ = pos.is_checkmate();
        }
    }
}

fn exercise_move_text(pos: &Position, text: &str) {
    match Move::from_usi(text) {
        Ok(m) => assert_eq!(m.to_string(), text, "USI text does not round-trip"),
        Err(e) => assert!(!e.to_string().is_empty()),
    }
    match pos.parse_move(text) {
        Ok(m) => assert!(pos.legal_moves().contains(&m)),
        Err(e) => assert!(!e.to_string().is_empty()),
    }
}

/// A valid SFEN with some bytes replaced, inserted or deleted.
fn mutated_sfen() -> impl Strategy<Value = String> {
    const ALPHABET: &[u8] = b"lnsgkbrpLNSGKBRP+/123456789 bw-0";
    let edit = (any::<u8>(), any::<prop::sample::Index>(), any::<prop::sample::Index>());
    (0..STARTS.len(), prop::collection::vec(edit, 1..=2)).prop_map(|(start, edits)| {
        let mut bytes = STARTS[start].sfen.as_bytes().to_vec();
        for (op, at, ch) in edits {
            let c = ALPHABET[ch.index(ALPHABET.len())];
            match op % 3 {
                0 if !bytes.is_empty() => {
                    let i = at.index(bytes.len());
                    bytes[i] = c;
                }
                1 => {
                    let i = at.index(bytes.len() + 1);
                    bytes.insert(i, c);
                }
                _ if !bytes.is_empty() => {
                    let i = at.index(bytes.len());
                    bytes.remove(i);
                }
                _ => {}
            }
        }
        String::from_utf8(bytes).expect("ASCII")
    })
}

proptest! {
    #![proptest_config(config(5000))]

    #[test]
    fn arbitrary_text_never_panics(text in ".*") {
        exercise_sfen(&text);
        exercise_move_text(&Position::startpos(), &text);
    }

    #[test]
    fn sfen_alphabet_never_panics(text in "[-lnsgkbrpLNSGKBRP+/1-9 bw]{0,100}") {
        exercise_sfen(&text);
    }

    #[test]
    fn mutated_sfen_never_panics(text in mutated_sfen()) {
        exercise_sfen(&text);
    }

    #[test]
    fn move_alphabet_never_panics(text in "[1-9a-jPLNSGBRKp*+]{0,6}", start in 0..STARTS.len()) {
        exercise_move_text(&start_position(start), &text);
    }
}

// ----- coverage of the random games ----------------------------------------------------------

/// The random games do reach the situations the properties are about: checks, double
/// checks, pins, pawn drops refused as mate, forced and optional promotions, mates in one.
#[test]
fn random_games_cover_interesting_situations() {
    #[derive(Default, Debug)]
    struct Seen {
        positions: u32,
        in_check: u32,
        double_check: u32,
        pinned: u32,
        pawn_drop_mate: u32,
        nifu_blocked: u32,
        optional_promotion: u32,
        mate_in_one: u32,
        checkmate: u32,
    }
    let mut seen = Seen::default();
    let mut rng = SplitMix64::new(0x9e37_79b9_7f4a_7c15);
    for game in 0..240 {
        let choices: Vec<u32> = (0..120).map(|_| (rng.next_u64() >> 32) as u32).collect();
        walk(game % STARTS.len(), &choices, |pos, _| {
            seen.positions += 1;
            let us = pos.side_to_move();
            seen.in_check += u32::from(pos.in_check());
            seen.double_check += u32::from(pos.checkers().has_more_than_one());
            seen.pinned += u32::from(pos.pinned(us).is_nonempty());
            seen.checkmate += u32::from(pos.is_checkmate());
            if pos.hand(us).has(PieceKind::Pawn) {
                let refused = Square::all().any(|s| {
                    let m = Move::drop(PieceKind::Pawn, s);
                    pos.is_pseudo_legal(m) && !pos.in_check() && !pos.is_legal(m)
                });
                seen.pawn_drop_mate += u32::from(refused);
                let nifu = Square::all().any(|s| {
                    s.rank().relative(us) != 0
                        && pos.piece_on(s).is_none()
                        && !pos.is_pseudo_legal(Move::drop(PieceKind::Pawn, s))
                });
                seen.nifu_blocked += u32::from(nifu);
            }
            let legal = pos.legal_moves();
            let optional = legal
                .iter()
                .any(|&m| m.is_promotion() && legal.contains(&Move::normal(m.from(), m.to(), false)));
            seen.optional_promotion += u32::from(optional);
            seen.mate_in_one += u32::from(pos.mate_in_one().is_some());
        });
    }
    println!("{seen:?}");
    assert!(seen.positions > 15_000, "{seen:?}");
    assert!(seen.in_check > 1000, "{seen:?}");
    assert!(seen.double_check > 10, "{seen:?}");
    assert!(seen.pinned > 500, "{seen:?}");
    assert!(seen.pawn_drop_mate > 20, "{seen:?}");
    assert!(seen.nifu_blocked > 1000, "{seen:?}");
    assert!(seen.optional_promotion > 1000, "{seen:?}");
    assert!(seen.mate_in_one > 200, "{seen:?}");
    assert!(seen.checkmate > 20, "{seen:?}");
}
