//! Typed-in positions, one or more per rule of shogi, each with concrete expected values.
//! Needs no external data.
//!
//! Squares in the comments are USI squares: files 1–9 from Black's right, ranks a–i from
//! White's side; Black (uppercase) moves up the board.

use soppo_core::declaration::EnteringKingRule;
use soppo_core::movegen::{self, MoveList};
use soppo_core::perft::perft;
use soppo_core::repetition::Repetition;
use soppo_core::types::PieceKind;
use soppo_core::{Color, Move, Position, STARTPOS_SFEN, SfenError, Square};
use std::collections::BTreeSet;

// ----- helpers -------------------------------------------------------------------------------

fn pos(sfen: &str) -> Position {
    Position::from_sfen(sfen).unwrap_or_else(|e| panic!("`{sfen}` rejected: {e}"))
}

fn mv(text: &str) -> Move {
    Move::from_usi(text).unwrap_or_else(|e| panic!("{e}"))
}

fn sq(text: &str) -> Square {
    let b = text.as_bytes();
    Square::from_usi(b[0], b[1]).unwrap_or_else(|| panic!("bad square {text}"))
}

/// Whether the move `text` is legal in `p`, after checking that the legal list,
/// `is_legal_move`, the slow check and `parse_move` all agree.
fn legal(p: &Position, text: &str) -> bool {
    let m = mv(text);
    let listed = p.legal_moves().contains(&m);
    let sfen = p.to_sfen();
    assert_eq!(
        p.is_legal_move(m),
        listed,
        "is_legal_move({text}) vs legal list in {sfen}"
    );
    assert_eq!(
        p.is_legal_slow(m),
        listed,
        "is_legal_slow({text}) vs legal list in {sfen}"
    );
    assert_eq!(p.parse_move(text).is_ok(), listed, "parse_move({text}) in {sfen}");
    listed
}

fn assert_legal(p: &Position, texts: &[&str]) {
    for t in texts {
        assert!(legal(p, t), "{t} should be legal in {}", p.to_sfen());
    }
}

fn assert_illegal(p: &Position, texts: &[&str]) {
    for t in texts {
        assert!(!legal(p, t), "{t} should be illegal in {}", p.to_sfen());
    }
}

fn set(texts: &[&str]) -> BTreeSet<String> {
    texts.iter().map(ToString::to_string).collect()
}

fn texts(moves: &[Move]) -> BTreeSet<String> {
    moves.iter().map(ToString::to_string).collect()
}

fn legal_set(p: &Position) -> BTreeSet<String> {
    texts(&p.legal_moves())
}

/// The legal moves of the piece on `from`.
fn moves_from(p: &Position, from: &str) -> BTreeSet<String> {
    let from = sq(from);
    p.legal_moves()
        .iter()
        .filter(|m| !m.is_drop() && m.from() == from)
        .map(ToString::to_string)
        .collect()
}

fn drops_of(p: &Position, kind: PieceKind) -> usize {
    p.legal_moves()
        .iter()
        .filter(|m| m.is_drop() && m.dropped_kind() == kind)
        .count()
}

fn play(sfen: &str, moves: &str) -> Position {
    let mut p = pos(sfen);
    for t in moves.split_whitespace() {
        let m = p
            .parse_move(t)
            .unwrap_or_else(|e| panic!("{t} in {}: {e}", p.to_sfen()));
        p.do_move(m);
    }
    p
}

fn after(p: &Position, text: &str) -> Position {
    let mut q = p.clone();
    q.do_move(mv(text));
    q
}

// ----- nifu ----------------------------------------------------------------------------------

#[test]
fn nifu_forbids_a_second_unpromoted_pawn_on_a_file() {
    // Black pawn on 5g.
    let p = pos("4k4/9/9/9/9/9/4P4/9/4K4 b P 1");
    assert_illegal(&p, &["P*5e", "P*5b", "P*5h"]);
    assert_legal(&p, &["P*4e", "P*6b", "P*1i"]);
    // Eight files, ranks b to i.
    assert_eq!(drops_of(&p, PieceKind::Pawn), 64);
}

#[test]
fn nifu_ignores_tokin_and_enemy_pawns() {
    // A tokin on 5g does not count as a pawn.
    let p = pos("4k4/9/9/9/9/9/4+P4/9/4K4 b P 1");
    assert_legal(&p, &["P*5e", "P*5h", "P*5b"]);
    assert_eq!(drops_of(&p, PieceKind::Pawn), 70);
    // Nor does White's pawn on 5b.
    let p = pos("4k4/4p4/9/9/9/9/9/9/4K4 b P 1");
    assert_legal(&p, &["P*5e", "P*5c"]);
    assert_eq!(drops_of(&p, PieceKind::Pawn), 70);
    // White's own pawns count for White.
    let p = pos("4k4/4p4/9/9/9/9/9/9/4K4 w p 1");
    assert_illegal(&p, &["P*5e"]);
    assert_legal(&p, &["P*4e"]);
}

// ----- pawn-drop mate (uchifuzume) -----------------------------------------------------------

#[test]
fn pawn_drop_mate_is_illegal() {
    // White king 9a, own knight on 8a; Black gold 8c guards 9b and 8b.
    let p = pos("kn7/9/1G7/9/9/9/9/9/4K4 b P 1");
    assert!(p.is_pawn_drop_mate(sq("9b")));
    assert_illegal(&p, &["P*9b"]);
    assert!(p.is_pseudo_legal(mv("P*9b")), "only the mate rule forbids it");
    // The drop would indeed leave White without a reply.
    let mut q = p.clone();
    q.do_move(mv("P*9b"));
    assert!(q.is_checkmate());
    // Nothing else mates in one here, and mate_in_one must not offer the pawn drop.
    assert_eq!(p.mate_in_one(), None);
    let mut checks = MoveList::new();
    movegen::generate_checks::<true>(&p, &mut checks);
    assert!(!checks.contains(&mv("P*9b")));
}

#[test]
fn pawn_drop_check_that_is_not_mate_is_legal() {
    // Same but no gold: the king takes the pawn.
    let p = pos("kn7/9/9/9/9/9/9/9/4K4 b P 1");
    assert!(!p.is_pawn_drop_mate(sq("9b")));
    assert_legal(&p, &["P*9b"]);
    assert!(p.gives_check(mv("P*9b")));
    // The king may take the pawn only because it is not protected.
    let q = after(&p, "P*9b");
    assert_eq!(legal_set(&q), set(&["9a9b", "9a8b"]));
}

#[test]
fn pawn_drop_mate_rule_does_not_apply_to_a_pawn_move() {
    // Black pawn 9c pushes to 9b, protected by the gold on 8c: mate, and legal.
    let p = pos("kn7/9/PG7/9/9/9/9/9/4K4 b - 1");
    assert_legal(&p, &["9c9b", "9c9b+"]);
    for m in ["9c9b", "9c9b+"] {
        assert!(after(&p, m).is_checkmate(), "{m} mates");
    }
    let m = p.mate_in_one().expect("a pawn move mates");
    assert!(after(&p, &m.to_string()).is_checkmate());
}

#[test]
fn pawn_drop_mate_rule_does_not_apply_to_other_drops() {
    let p = pos("kn7/9/1G7/9/9/9/9/9/4K4 b L 1");
    assert_legal(&p, &["L*9b", "L*9c"]);
    assert!(after(&p, "L*9b").is_checkmate());
    assert!(p.mate_in_one().is_some());
    let p = pos("kn7/9/1G7/9/9/9/9/9/4K4 b G 1");
    assert!(after(&p, "G*9b").is_checkmate());
    assert_legal(&p, &["G*9b"]);
}

#[test]
fn pawn_drop_mate_when_the_only_capturer_is_pinned_off_the_line() {
    // White gold 8a could take a pawn on 9b, but the Black rook on 5a pins it along rank a.
    let p = pos("kg2R4/9/1G7/9/9/9/9/9/4K4 b P 1");
    assert!(p.pinned(Color::White).contains(sq("8a")));
    assert!(p.is_pawn_drop_mate(sq("9b")));
    assert_illegal(&p, &["P*9b"]);
    // Without the pin the gold takes and the drop is legal.
    let p = pos("kg7/9/1G7/9/9/9/9/9/4K4 b P 1");
    assert!(!p.is_pawn_drop_mate(sq("9b")));
    assert_legal(&p, &["P*9b"]);
    assert_eq!(moves_from(&after(&p, "P*9b"), "8a"), set(&["8a9b"]));
}

#[test]
fn pawn_drop_not_mate_when_a_pinned_defender_captures_along_the_pin_line() {
    // White king 5a boxed in by its knights (6a, 4a) and pawns (6b, 4b); the Black knight on
    // 4d guards 5b. The White gold on 5c is pinned by the Black lance on 5g, but taking on
    // 5b moves it along the pin line, so the drop is not mate.
    let p = pos("3nkn3/3p1p3/4g4/5N3/9/9/4L4/9/K8 b P 1");
    assert!(p.pinned(Color::White).contains(sq("5c")));
    assert!(!p.is_pawn_drop_mate(sq("5b")));
    assert_legal(&p, &["P*5b"]);
    let q = after(&p, "P*5b");
    assert!(q.in_check());
    assert_eq!(legal_set(&q), set(&["5c5b"]));
    // A lance drop there is simply mate.
    let p = pos("3nkn3/3p1p3/4g4/5N3/9/9/4L4/9/K8 b L 1");
    assert!(!after(&p, "L*5b").is_checkmate(), "the gold still takes a lance");
    // Take gold and lance away and the pawn drop becomes mate: illegal.
    let p = pos("3nkn3/3p1p3/9/5N3/9/9/9/9/K8 b P 1");
    assert!(p.is_pawn_drop_mate(sq("5b")));
    assert_illegal(&p, &["P*5b"]);
}

// ----- dead pieces and promotion -------------------------------------------------------------

#[test]
fn drops_on_ranks_where_the_piece_could_never_move_are_illegal() {
    let p = pos("4k4/9/9/9/9/9/9/9/4K4 b PLN 1");
    assert_illegal(&p, &["P*1a", "L*1a", "N*1a", "N*1b"]);
    assert_legal(&p, &["P*1b", "L*1b", "N*1c"]);
    // 81 squares minus the kings' and the dead ranks.
    assert_eq!(drops_of(&p, PieceKind::Pawn), 71);
    assert_eq!(drops_of(&p, PieceKind::Lance), 71);
    assert_eq!(drops_of(&p, PieceKind::Knight), 62);
    let p = pos("4k4/9/9/9/9/9/9/9/4K4 w pln 1");
    assert_illegal(&p, &["P*1i", "L*1i", "N*1i", "N*1h"]);
    assert_legal(&p, &["P*1h", "L*1h", "N*1g"]);
}

#[test]
fn moves_to_dead_ranks_must_promote() {
    // Black pawn 1b, lance 2c, knights 4c and 7e; White king 8a.
    let p = pos("1k7/8P/5N1L1/9/2N6/9/9/9/4K4 b - 1");
    assert_illegal(&p, &["1b1a", "2c2a", "4c5a", "4c3a"]);
    assert_legal(&p, &["1b1a+", "2c2a+", "4c5a+", "4c3a+"]);
    for m in ["1b1a", "2c2a", "4c5a", "4c3a"] {
        assert!(!p.is_pseudo_legal(mv(m)), "{m} is not even pseudo-legal");
    }
    // Not dead: promotion optional.
    assert_legal(&p, &["2c2b", "2c2b+", "7e8c", "7e8c+", "7e6c", "7e6c+"]);
    // White's dead ranks are h and i.
    let p = pos("4k4/9/9/9/9/9/9/p8/4K4 w - 1");
    assert_illegal(&p, &["9h9i"]);
    assert_legal(&p, &["9h9i+"]);
}

#[test]
fn promotion_is_optional_into_within_and_out_of_the_zone() {
    // Black rook 2c (in the zone), bishop 6f (outside).
    let p = pos("1k7/9/7R1/9/9/3B5/9/9/4K4 b - 1");
    assert_legal(&p, &["2c2f", "2c2f+", "2c2d+", "2c2b+", "2c2b", "6f3c", "6f3c+"]);
    assert_illegal(&p, &["6f5e+", "6f4d+", "6f7g+"]);
    assert!(!p.is_pseudo_legal(mv("6f5e+")));
    // White silver leaving White's zone.
    let p = pos("4k4/9/9/9/9/9/4s4/9/K8 w - 1");
    assert_legal(&p, &["5g4f", "5g4f+", "5g5h", "5g5h+"]);
}

#[test]
fn gold_king_and_promoted_pieces_never_promote() {
    // Black king 5c, gold 7c, tokin 3c and dragon 1e, all in or touching the zone.
    let p = pos("4k4/9/2G1K1+P2/9/8+R/9/9/9/9 b - 1");
    assert_illegal(&p, &["5c5d+", "7c7b+", "3c3b+", "1e1d+", "1e1c+"]);
    assert_legal(&p, &["5c5d", "7c7b", "3c3b", "1e1d", "1e1c"]);
    for m in ["5c5d+", "7c7b+", "3c3b+", "1e1d+"] {
        assert!(!p.is_pseudo_legal(mv(m)), "{m}");
    }
}

// ----- pins, discovered and double check ------------------------------------------------------

#[test]
fn pinned_piece_moves_only_along_the_pin_including_capturing_the_pinner() {
    // Black rook 5f pinned by the White rook 5b against the Black king 5i.
    let p = pos("4k4/4r4/9/9/9/4R4/9/9/4K4 b - 1");
    assert!(p.pinned(Color::Black).contains(sq("5f")));
    assert_eq!(
        moves_from(&p, "5f"),
        set(&["5f5e", "5f5d", "5f5c", "5f5c+", "5f5b", "5f5b+", "5f5g", "5f5h"])
    );
    assert_illegal(&p, &["5f4f", "5f1f", "5f9f"]);
    // Black silver 4h pinned diagonally by the bishop on 2f: only 3g stays on the line.
    let p = pos("4k4/9/9/9/9/7b1/9/5S3/4K4 b - 1");
    assert_eq!(moves_from(&p, "4h"), set(&["4h3g"]));
    assert_illegal(&p, &["4h4g", "4h5g", "4h3i"]);
    // A knight pinned by a lance cannot move at all.
    let p = pos("4k4/9/4l4/9/9/9/9/4N4/4K4 b - 1");
    assert!(moves_from(&p, "5h").is_empty());
    assert_illegal(&p, &["5h4f", "5h6f"]);
}

#[test]
fn discovered_check() {
    // Black silver 5e stands between the Black rook 5h and the White king 5a.
    let p = pos("4k4/9/9/9/4S4/9/9/4R4/K8 b - 1");
    for (m, check) in [
        ("5e4d", true),
        ("5e6d", true),
        ("5e4f", true),
        ("5e6f", true),
        ("5e5d", false),
    ] {
        assert_eq!(p.gives_check(mv(m)), check, "{m}");
        assert_eq!(after(&p, m).in_check(), check, "{m}");
    }
    let q = after(&p, "5e4d");
    assert_eq!(q.checkers().count(), 1);
    assert!(q.checkers().contains(sq("5h")));
}

#[test]
fn double_check_is_answered_only_by_king_moves() {
    // Knight 5e to 4c checks directly and uncovers the rook on 5h.
    let p = pos("4k4/3g2s2/9/9/4N4/9/9/4R4/K8 b g 1");
    for m in ["5e4c", "5e6c", "5e4c+", "5e6c+"] {
        assert!(p.gives_check(mv(m)), "{m}");
    }
    let q = after(&p, "5e4c");
    assert_eq!(q.checkers().count(), 2);
    // The silver could take the knight and the gold could block, the hand holds a gold:
    // none of it helps against two checkers. 5b is still on the rook's line.
    assert_eq!(legal_set(&q), set(&["5a4a", "5a6a", "5a4b"]));
    let mut evasions = MoveList::new();
    movegen::generate_evasions::<true>(&q, &mut evasions);
    assert_eq!(texts(&evasions), set(&["5a4a", "5a6a", "5a4b"]));
    // Promoting the knight leaves only the rook's check: blocks and drops work again.
    let q = after(&p, "5e4c+");
    assert_eq!(q.checkers().count(), 1);
    assert_eq!(
        legal_set(&q),
        set(&[
            "5a4a", "5a6a", "6b5b", "6b5c", "G*5b", "G*5c", "G*5d", "G*5e", "G*5f", "G*5g"
        ])
    );
}

// ----- king safety ---------------------------------------------------------------------------

#[test]
fn king_cannot_step_back_along_the_checking_line() {
    // White rook 5a checks the Black king 5e: 5d and 5f (x-ray through the king) are attacked.
    let p = pos("k3r4/9/9/9/4K4/9/9/9/9 b - 1");
    assert_eq!(legal_set(&p), set(&["5e4d", "5e6d", "5e4e", "5e6e", "5e4f", "5e6f"]));
    assert_illegal(&p, &["5e5f", "5e5d"]);
    // Same with a bishop on 1a: 4d and 6f are on its diagonal.
    let p = pos("k7b/9/9/9/4K4/9/9/9/9 b - 1");
    assert_eq!(legal_set(&p), set(&["5e5d", "5e6d", "5e4e", "5e6e", "5e4f", "5e5f"]));
}

#[test]
fn king_never_moves_into_attack() {
    // Not in check, but the White gold on 4c guards 5d and 4d.
    let p = pos("k8/9/5g3/9/4K4/9/9/9/9 b - 1");
    assert!(!p.in_check());
    assert_eq!(
        moves_from(&p, "5e"),
        set(&["5e6d", "5e6e", "5e4e", "5e6f", "5e5f", "5e4f"])
    );
    // Each king move lands on a square the opponent does not attack afterwards.
    for m in &p.legal_moves() {
        let q = after(&p, &m.to_string());
        let k = q.king_square(Color::Black).expect("king");
        assert!(!q.is_attacked(Color::White, k), "{m}");
    }
}

#[test]
fn adjacent_or_knight_checker_cannot_be_blocked_by_a_drop() {
    // White gold 5d (protected by the pawn 5c) checks the Black king 5e.
    let p = pos("k8/9/4p4/4g4/4K4/9/9/9/9 b GS 1");
    assert_eq!(legal_set(&p), set(&["5e6f", "5e5f", "5e4f"]));
    assert_illegal(&p, &["G*5f", "S*4d"]);
    // White knight 4c checks 5e: nothing can be put in between.
    let p = pos("k8/9/5n3/9/4K4/9/9/9/9 b GS 1");
    assert!(p.in_check());
    let legal = p.legal_moves();
    assert!(legal.iter().all(|m| !m.is_drop()), "{legal:?}");
    assert_eq!(legal.len(), 8);
    assert_illegal(&p, &["G*4d", "S*5d"]);
}

#[test]
fn evasions_by_capture_interposition_and_king_move() {
    // White rook 5a checks the Black king 5i down the file.
    let p = pos("k3r4/9/9/9/8B/9/9/5G3/4K4 b P 1");
    let king_steps = ["5i4i", "5i6i", "5i6h"];
    let bishop_takes = ["1e5a", "1e5a+"];
    let gold_blocks = ["4h5h", "4h5g"];
    let pawn_drops = ["P*5b", "P*5c", "P*5d", "P*5e", "P*5f", "P*5g", "P*5h"];
    let want: BTreeSet<String> = [&king_steps[..], &bishop_takes, &gold_blocks, &pawn_drops]
        .concat()
        .iter()
        .map(ToString::to_string)
        .collect();
    assert_eq!(want.len(), 14);
    assert_eq!(legal_set(&p), want);
    let mut evasions = MoveList::new();
    movegen::generate_evasions::<true>(&p, &mut evasions);
    assert_eq!(texts(&evasions), want);
    // Without non-promotions the bishop must promote when taking.
    let mut evasions = MoveList::new();
    movegen::generate_evasions::<false>(&p, &mut evasions);
    assert_eq!(texts(&evasions).len(), want.len() - 1);
    assert!(!texts(&evasions).contains("1e5a"));
}

// ----- perft ---------------------------------------------------------------------------------

#[test]
fn perft_startpos() {
    let mut p = Position::startpos();
    for (depth, nodes) in [(1, 30), (2, 900), (3, 25_470), (4, 719_731), (5, 19_861_490)] {
        assert_eq!(perft(&mut p, depth), nodes, "depth {depth}");
    }
    assert_eq!(p.to_sfen(), STARTPOS_SFEN);
}

#[test]
fn perft_593_move_position() {
    let mut p = pos("R8/2K1S1SSk/4B4/9/9/9/9/9/1L1L1L3 b RBGSNLP3g3n17p 1");
    assert_eq!(perft(&mut p, 1), 593);
    assert_eq!(perft(&mut p, 2), 105_677);
}

#[test]
fn perft_handicap_and_tsume_starts() {
    // Two-piece handicap: White moves first with 9 pawns, 2 lances, 2 silvers × 3, 2 golds
    // × 3 and the king × 3.
    let mut p = pos("lnsgkgsnl/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1");
    assert_eq!(p.side_to_move(), Color::White);
    assert_eq!(perft(&mut p, 1), 26);
    // Tsume: Black has no king and every other piece in hand. R, B, G, S on 80 squares,
    // N on 63, L and P on 72.
    let mut p = pos("4k4/9/9/9/9/9/9/9/9 b 2R2B4G4S4N4L18P 1");
    assert_eq!(p.king_square(Color::Black), None);
    assert_eq!(perft(&mut p, 1), 527);
    // The lone king to move.
    let mut p = pos("4k4/9/9/9/9/9/9/9/9 w 2R2B4G4S4N4L18P 1");
    assert_eq!(perft(&mut p, 1), 5);
}

// ----- repetition ----------------------------------------------------------------------------

#[test]
fn quiet_cycle_is_a_draw_at_first_recurrence_and_ends_the_game_at_the_fourth() {
    let cycle = "5i5h 5a5b 5h5i 5b5a";
    let p = play(STARTPOS_SFEN, "5i5h 5a5b");
    assert_eq!(p.repetition(16), Repetition::None);
    let p = play(STARTPOS_SFEN, cycle);
    assert_eq!(p.repetition(16), Repetition::Draw);
    assert_eq!(
        p.repetition(3),
        Repetition::None,
        "the cycle is longer than the look-back"
    );
    assert_eq!(p.game_repetition(), Repetition::None);
    let p = play(STARTPOS_SFEN, &[cycle; 2].join(" "));
    assert_eq!(p.game_repetition(), Repetition::None, "third occurrence");
    let p = play(STARTPOS_SFEN, &[cycle; 3].join(" "));
    assert_eq!(p.game_repetition(), Repetition::Draw, "fourth occurrence");
}

#[test]
fn perpetual_check_loses_for_the_checking_side() {
    // The Black rook checks the White king on every move: 2c1c+, 1a2a, 1c2c+, 2a1a.
    let start = "8k/9/7R1/9/9/9/9/9/K8 b - 1";
    let cycle = "2c1c 1a2a 1c2c 2a1a";
    let p = play(start, cycle);
    assert_eq!(p.side_to_move(), Color::Black);
    assert_eq!(p.repetition(16), Repetition::Loss);
    assert_eq!(p.game_repetition(), Repetition::None);
    let p = play(start, &format!("{cycle} 2c1c"));
    assert_eq!(p.repetition(16), Repetition::Win, "White to move, checked throughout");
    let p = play(start, &[cycle; 3].join(" "));
    assert_eq!(p.game_repetition(), Repetition::Loss);
    let p = play(start, &format!("{} 2c1c", [cycle; 3].join(" ")));
    assert_eq!(p.game_repetition(), Repetition::Win);
}

#[test]
fn a_cycle_with_one_quiet_move_is_a_draw() {
    // Black checks (3c1c), then retreats quietly (1c3c).
    let p = play("8k/9/6R2/9/9/9/9/9/K8 b - 1", "3c1c 1a2a 1c3c 2a1a");
    assert_eq!(p.repetition(16), Repetition::Draw);
}

#[test]
fn superior_and_inferior_repetition() {
    // White drops a pawn, Black takes it and the pieces go back: same board, Black a pawn up.
    let start = "4k4/9/9/9/9/9/9/7R1/K8 b p 1";
    let moves = "9i9h P*2d 2h2d 5a4a 2d2h 4a4b 9h9i 4b5a";
    let p = play(start, moves);
    assert_eq!(p.side_to_move(), Color::Black);
    assert_eq!(p.repetition(16), Repetition::Superior);
    let p = play(start, &format!("{moves} 9i9h"));
    assert_eq!(p.side_to_move(), Color::White);
    assert_eq!(p.repetition(16), Repetition::Inferior);
}

// ----- entering-king declaration -------------------------------------------------------------

/// Black king 5b in camp with 12 pieces: dragon, horse (5 each), 7 tokins, gold, 2 silvers
/// = 20 points on the board; the hand adds one point per pawn.
const CAMP: &str = "+R+B+P+P+P+P+P+P+P/3GKS3/4S4/9/9/9/9/9/4k4 b";

#[test]
fn declaration_points_and_thresholds() {
    let p = pos(&format!("{CAMP} 8P 1"));
    assert_eq!(p.declaration_points(Color::Black), 28);
    assert_eq!(p.declaration_points(Color::White), 0);
    assert_eq!(p.declaration_threshold(EnteringKingRule::Csa27, Color::Black), Some(28));
    assert_eq!(p.declaration_threshold(EnteringKingRule::Csa27, Color::White), Some(27));
    assert_eq!(p.declaration_threshold(EnteringKingRule::Csa24, Color::Black), Some(31));
    assert_eq!(p.declaration_threshold(EnteringKingRule::Csa24, Color::White), Some(31));
    assert_eq!(p.declaration_threshold(EnteringKingRule::None, Color::Black), None);
    // The start position: no piece in either camp.
    let s = Position::startpos();
    assert_eq!(s.declaration_points(Color::Black), 0);
    assert!(!s.can_declare_win(EnteringKingRule::Csa27));
}

#[test]
fn declaration_succeeds_and_fails_on_points() {
    // 28 points: enough under the 27-point rule for Black, not under the 24-point rule.
    let p = pos(&format!("{CAMP} 8P 1"));
    assert!(p.can_declare_win(EnteringKingRule::Csa27));
    assert!(!p.can_declare_win(EnteringKingRule::Csa24));
    assert!(!p.can_declare_win(EnteringKingRule::None));
    // 27 points: Black needs 28.
    let p = pos(&format!("{CAMP} 7P 1"));
    assert_eq!(p.declaration_points(Color::Black), 27);
    assert!(!p.can_declare_win(EnteringKingRule::Csa27));
    // 31 points: enough under both.
    let p = pos(&format!("{CAMP} 11P 1"));
    assert_eq!(p.declaration_points(Color::Black), 31);
    assert!(p.can_declare_win(EnteringKingRule::Csa27));
    assert!(p.can_declare_win(EnteringKingRule::Csa24));
    // White needs only 27 under the 27-point rule (the mirror image of the 27-point case).
    let p = pos("4K4/9/9/9/9/9/4s4/3skg3/+p+p+p+p+p+p+p+b+r w 7p 1");
    assert_eq!(p.declaration_points(Color::White), 27);
    assert!(p.can_declare_win(EnteringKingRule::Csa27));
    assert!(!p.can_declare_win(EnteringKingRule::Csa24));
}

#[test]
fn declaration_needs_king_in_camp_no_check_and_ten_pieces() {
    // King on 5d, outside the camp: same points, no declaration.
    let p = pos("+R+B+P+P+P+P+P+P+P/3G1S3/4S4/4K4/9/9/9/9/4k4 b 8P 1");
    assert_eq!(p.declaration_points(Color::Black), 28);
    assert!(!p.can_declare_win(EnteringKingRule::Csa27));
    // In check from the rook on 5h.
    let p = pos("+R+B+P+P+P+P+P+P+P/3GKS3/3S5/9/9/9/9/4r4/4k4 b 8P 1");
    assert!(p.in_check());
    assert_eq!(p.declaration_points(Color::Black), 28);
    assert!(!p.can_declare_win(EnteringKingRule::Csa27));
    let p = pos("+R+B+P+P+P+P+P+P+P/3GKS3/3S5/9/9/9/9/9/4k4 b 8P 1");
    assert!(p.can_declare_win(EnteringKingRule::Csa27), "the same without the check");
    // Nine pieces in camp, 28 points with the hand: not enough pieces.
    let p = pos("+R+B+P+P+P+P+P+P+P/4K4/9/9/9/9/9/9/4k4 b G2S8P 1");
    assert_eq!(p.declaration_points(Color::Black), 28);
    assert!(!p.can_declare_win(EnteringKingRule::Csa27));
    // Ten pieces in camp, still 28 points.
    let p = pos("+R+B+P+P+P+P+P+P+P/4KG3/9/9/9/9/9/9/4k4 b 2S8P 1");
    assert_eq!(p.declaration_points(Color::Black), 28);
    assert!(p.can_declare_win(EnteringKingRule::Csa27));
    // Only the side to move may declare.
    let p = pos(&format!("{} 8P 1", CAMP.replace(" b", " w")));
    assert!(!p.can_declare_win(EnteringKingRule::Csa27));
}

// ----- SFEN ----------------------------------------------------------------------------------

const EMPTY_BOARD_KINGS: &str = "4k4/9/9/9/9/9/9/9/4K4";

#[test]
fn sfen_board_errors_name_the_byte() {
    let board = |text: &str| match Position::from_sfen(text) {
        Err(SfenError::Board { offset, reason }) => (offset, reason),
        other => panic!("`{text}`: expected a board error, got {other:?}"),
    };
    // A bad letter right after the last rank (the board is 21 bytes long).
    let (offset, reason) = board("4k4/9/9/9/9/9/9/9/4K4x b - 1");
    assert_eq!(offset, 21);
    assert!(reason.contains("not a piece letter"), "{reason}");
    // Offsets count from the start of the text, leading blanks included.
    assert_eq!(board("  4k4/9/9/9/9/9/9/9/4K4x b - 1").0, 23);
    // Ten squares on the first rank: the `5` at byte 2.
    let (offset, reason) = board("4k5/9/9/9/9/9/9/9/4K4 b - 1");
    assert_eq!(offset, 2);
    assert!(reason.contains("more than 9"), "{reason}");
    // Eight squares on the first rank: reported at its `/`.
    let (offset, reason) = board("4k3/9/9/9/9/9/9/9/4K4 b - 1");
    assert_eq!(offset, 3);
    assert!(reason.contains("8 squares"), "{reason}");
    // A second Black king at byte 20.
    let (offset, reason) = board("4k4/9/9/9/9/9/9/9/3KK4 b - 1");
    assert_eq!(offset, 20);
    assert!(reason.contains("second Black king"), "{reason}");
    // A Black pawn on the first rank could never move.
    let (offset, reason) = board("P3k4/9/9/9/9/9/9/9/4K4 b - 1");
    assert_eq!(offset, 0);
    assert!(reason.contains("never move"), "{reason}");
    // A promoted king, and a `+` with no piece.
    assert_eq!(board("4+k4/9/9/9/9/9/9/9/4K4 b - 1").0, 2);
    assert_eq!(board("4k3+/9/9/9/9/9/9/9/4K4 b - 1").0, 4);
    // Only eight ranks.
    let (offset, _) = board("4k4/9/9/9/9/9/9/4K4 b - 1");
    assert_eq!(offset, 19);
}

#[test]
fn sfen_other_field_errors_name_the_byte() {
    let e = Position::from_sfen(&format!("{EMPTY_BOARD_KINGS} x - 1")).unwrap_err();
    assert_eq!(
        e,
        SfenError::Side {
            offset: 22,
            found: "x".into()
        }
    );
    let e = Position::from_sfen(&format!("{EMPTY_BOARD_KINGS} b 2X 1")).unwrap_err();
    assert!(matches!(e, SfenError::Hand { offset: 25, .. }), "{e:?}");
    // A hand records at most 31 pawns.
    let e = Position::from_sfen(&format!("{EMPTY_BOARD_KINGS} b 32P 1")).unwrap_err();
    assert!(matches!(e, SfenError::Hand { offset: 24, .. }), "{e:?}");
    let e = Position::from_sfen(&format!("{EMPTY_BOARD_KINGS} b P0G 1")).unwrap_err();
    assert!(matches!(e, SfenError::Hand { offset: 25, .. }), "{e:?}");
    let e = Position::from_sfen(&format!("{EMPTY_BOARD_KINGS} b 3 1")).unwrap_err();
    assert!(matches!(e, SfenError::Hand { offset: 24, .. }), "{e:?}");
    let e = Position::from_sfen(&format!("{EMPTY_BOARD_KINGS} b - 0x")).unwrap_err();
    assert_eq!(
        e,
        SfenError::MoveNumber {
            offset: 26,
            found: "0x".into()
        }
    );
    assert_eq!(
        Position::from_sfen(&format!("{EMPTY_BOARD_KINGS} b")),
        Err(SfenError::FieldCount { found: 2 })
    );
    assert_eq!(
        Position::from_sfen(&format!("{EMPTY_BOARD_KINGS} b - 1 2")),
        Err(SfenError::FieldCount { found: 5 })
    );
    assert_eq!(Position::from_sfen(""), Err(SfenError::FieldCount { found: 0 }));
    // Every error has a message naming its field.
    for (text, word) in [
        (format!("{EMPTY_BOARD_KINGS}x b - 1"), "board"),
        (format!("{EMPTY_BOARD_KINGS} x - 1"), "side"),
        (format!("{EMPTY_BOARD_KINGS} b X 1"), "hand"),
        (format!("{EMPTY_BOARD_KINGS} b - x"), "move-number"),
    ] {
        let msg = Position::from_sfen(&text).unwrap_err().to_string();
        assert!(msg.contains(word), "`{msg}` should mention {word}");
    }
}

#[test]
fn sfen_impossible_positions_are_rejected() {
    let illegal = |text: &str| match Position::from_sfen(text) {
        Err(SfenError::Illegal(reason)) => reason,
        other => panic!("`{text}`: expected Illegal, got {other:?}"),
    };
    // Nifu on the board.
    assert!(illegal("4k4/9/9/9/4P4/9/4P4/9/4K4 b - 1").contains("nifu"));
    // More pawns than any hand could hold after captures (a hand records at most 31).
    illegal(&format!("{EMPTY_BOARD_KINGS} b 31Pp 1"));
    illegal("4k4/9/9/9/9/9/4P4/9/4K4 b 31P 1");
    // Over-full material that still fits is accepted (test suites use such positions).
    assert_eq!(
        pos(&format!("{EMPTY_BOARD_KINGS} b 19P 1"))
            .hand(Color::Black)
            .count(PieceKind::Pawn),
        19
    );
    // The side not to move is in check (White king 5a, Black rook 5b, Black to move).
    illegal("4k4/4R4/9/9/9/9/9/9/4K4 b - 1");
    // With White to move it is an ordinary check.
    assert!(pos("4k4/4R4/9/9/9/9/9/9/4K4 w - 1").in_check());
}

#[test]
fn sfen_accepts_handicap_tsume_and_missing_move_number() {
    let p = pos("lnsgkgsnl/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1");
    assert_eq!(p.side_to_move(), Color::White);
    assert_eq!(
        p.to_sfen(),
        "lnsgkgsnl/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1"
    );
    // One king only.
    let p = pos("4k4/9/9/9/9/9/9/9/9 b 2R2B4G4S4N4L18P 1");
    assert_eq!(p.king_square(Color::Black), None);
    assert_eq!(p.king_square(Color::White), Some(sq("5a")));
    assert_eq!(p.hand(Color::Black).total(), 38);
    // No move number: 1 is assumed and printed.
    let p = pos("4k4/9/9/9/9/9/9/9/4K4 b -");
    assert_eq!(p.move_number(), 1);
    assert_eq!(p.to_sfen(), "4k4/9/9/9/9/9/9/9/4K4 b - 1");
    // Hands in any order and with repeated letters print canonically.
    let p = pos("4k4/9/9/9/9/9/9/9/4K4 b pPrG2p 7");
    assert_eq!(p.to_sfen(), "4k4/9/9/9/9/9/9/9/4K4 b GPr3p 7");
    assert_eq!(p.move_number(), 7);
    // `startpos` is a name for the start position.
    assert_eq!(pos("startpos"), Position::startpos());
    assert_eq!(Position::startpos().to_sfen(), STARTPOS_SFEN);
}
