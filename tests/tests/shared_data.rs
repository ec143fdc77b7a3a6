//! Known-answer tests against the public data in `shared/data` (see its README for the
//! formats and caveats). Each test skips with a message when the data directory is absent,
//! and asserts every record when it is present.

use soppo_core::declaration::EnteringKingRule;
use soppo_core::movegen::{MoveList, generate_checks};
use soppo_core::perft::perft;
use soppo_core::repetition::Repetition;
use soppo_core::types::PieceKind;
use soppo_core::{Color, Move, Position, SfenError};
use soppo_tests::{
    Failures, Record, Tally, all_move_encodings, brute_force_mates, is_pawn_drop_mate_slow, load, move_tokens,
    over_full_material, parse_usi_position, play, position, sfen_without_move_number, slow_legal_moves,
};
use std::collections::BTreeSet;
use std::time::Instant;

fn move_texts(list: &[Move]) -> BTreeSet<String> {
    list.iter().map(ToString::to_string).collect()
}

fn parse_bool(text: &str) -> Result<bool, String> {
    match text {
        "true" => Ok(true),
        "false" => Ok(false),
        other => Err(format!("expected true/false, found `{other}`")),
    }
}

/// `black=28 white=27` → (28, 27).
fn parse_black_white(text: &str) -> Result<(u32, u32), String> {
    let mut black = None;
    let mut white = None;
    for part in text.split_whitespace() {
        let (k, v) = part.split_once('=').ok_or_else(|| format!("bad field `{part}`"))?;
        let v: u32 = v.parse().map_err(|e| format!("bad number in `{part}`: {e}"))?;
        match k {
            "black" => black = Some(v),
            "white" => white = Some(v),
            _ => return Err(format!("unknown field `{part}`")),
        }
    }
    Ok((black.ok_or("no black=")?, white.ok_or("no white=")?))
}

fn nshogi_repetition(name: &str) -> Result<Repetition, String> {
    Ok(match name {
        "Repetition" => Repetition::Draw,
        "WinRepetition" => Repetition::Win,
        "LossRepetition" => Repetition::Loss,
        "SuperiorRepetition" => Repetition::Superior,
        "InferiorRepetition" => Repetition::Inferior,
        "NoRepetition" => Repetition::None,
        other => return Err(format!("unknown nshogi repetition status `{other}`")),
    })
}

fn yaneuraou_repetition(name: &str) -> Result<Repetition, String> {
    Ok(match name {
        "REPETITION_DRAW" => Repetition::Draw,
        "REPETITION_WIN" => Repetition::Win,
        "REPETITION_LOSE" => Repetition::Loss,
        "REPETITION_SUPERIOR" => Repetition::Superior,
        "REPETITION_INFERIOR" => Repetition::Inferior,
        "REPETITION_NONE" => Repetition::None,
        other => return Err(format!("unknown YaneuraOu repetition state `{other}`")),
    })
}

/// The entering-king rule named in a `declaration_threshold` note (`... rule EKR_27_POINT_H ...`).
fn rule_from_note(note: &str) -> Result<EnteringKingRule, String> {
    let start = note.find("EKR_").ok_or("note names no EKR_ rule")?;
    let name: String = note[start..]
        .chars()
        .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
        .collect();
    Ok(match name.as_str() {
        "EKR_NULL" => EnteringKingRule::None,
        "EKR_24_POINT" => EnteringKingRule::Csa24,
        "EKR_27_POINT" => EnteringKingRule::Csa27,
        "EKR_24_POINT_H" => EnteringKingRule::Csa24Handicap,
        "EKR_27_POINT_H" => EnteringKingRule::Csa27Handicap,
        other => return Err(format!("unknown rule `{other}`")),
    })
}

/// Sets up a `rules.tsv` row: the SFEN and every move of the moves column (which must be
/// legal), except the last one when `keep_last` (returned for the caller to judge).
fn setup(r: &Record, keep_last: bool) -> Result<(Position, Option<&str>), String> {
    let mut pos = Position::from_sfen(r.col(1)).map_err(|e| format!("bad SFEN: {e}"))?;
    let mut moves = move_tokens(r.col(2));
    let last = if keep_last {
        Some(moves.pop().ok_or("no move to judge")?)
    } else {
        None
    };
    play(&mut pos, &moves)?;
    Ok((pos, last))
}

/// Checks one `rules.tsv` row.
fn check_rule(r: &Record) -> Result<(), String> {
    let kind = r.col(0);
    let expected = r.col(3);
    let note = r.col(4);
    match kind {
        "move_legal" | "move_illegal" => {
            let want_legal = kind == "move_legal";
            if expected != (if want_legal { "legal" } else { "illegal" }) {
                return Err(format!("kind {kind} with expected `{expected}`"));
            }
            let (pos, last) = setup(r, true)?;
            let text = last.unwrap_or_default();
            let m = Move::from_usi(text).map_err(|e| format!("move text: {e}"))?;
            let parsed = pos.parse_move(text);
            let in_list = pos.legal_moves().contains(&m);
            let fast = pos.is_legal_move(m);
            if parsed.is_ok() != want_legal || in_list != want_legal || fast != want_legal {
                return Err(format!(
                    "{text}: expected {expected}; parse_move {parsed:?}, in legal_moves {in_list}, is_legal_move {fast}"
                ));
            }
        }
        "legal_move_count" => {
            let (pos, _) = setup(r, false)?;
            let want: usize = expected.parse().map_err(|e| format!("bad count: {e}"))?;
            let got = pos.legal_moves().len();
            if got != want {
                return Err(format!("{got} legal moves, expected {want}: {:?}", pos.legal_moves()));
            }
        }
        "legal_moves_set" => {
            let (pos, _) = setup(r, false)?;
            let want: BTreeSet<String> = expected.split_whitespace().map(str::to_string).collect();
            let got = move_texts(&pos.legal_moves());
            if got != want {
                let missing: Vec<_> = want.difference(&got).collect();
                let extra: Vec<_> = got.difference(&want).collect();
                return Err(format!("legal set differs: missing {missing:?}, extra {extra:?}"));
            }
        }
        "in_check" => {
            let (pos, _) = setup(r, false)?;
            let got = match pos.checkers().count() {
                0 => "false",
                1 => "true",
                _ => "double_check",
            };
            if got != expected || pos.in_check() != (expected != "false") {
                return Err(format!(
                    "in_check {} ({} checkers), expected {expected}",
                    pos.in_check(),
                    pos.checkers().count()
                ));
            }
        }
        "sfen_valid" => {
            if expected != "valid" {
                return Err(format!("kind {kind} with expected `{expected}`"));
            }
            let pos = Position::from_sfen(r.col(1)).map_err(|e| format!("valid SFEN rejected: {e}"))?;
            // Printing and re-reading gives the same position.
            let again = Position::from_sfen(&pos.to_sfen()).map_err(|e| format!("to_sfen output rejected: {e}"))?;
            if again.key() != pos.key() || again.to_sfen() != pos.to_sfen() {
                return Err(format!(
                    "SFEN round trip differs: {} vs {}",
                    pos.to_sfen(),
                    again.to_sfen()
                ));
            }
        }
        "sfen_invalid" => {
            if expected != "invalid" {
                return Err(format!("kind {kind} with expected `{expected}`"));
            }
            if let Ok(pos) = Position::from_sfen(r.col(1)) {
                return Err(format!("invalid SFEN accepted as {}", pos.to_sfen()));
            }
        }
        "repetition_nshogi" | "repetition_yaneuraou" => {
            let want = if kind == "repetition_nshogi" {
                nshogi_repetition(expected)?
            } else {
                yaneuraou_repetition(expected)?
            };
            let (pos, _) = setup(r, false)?;
            let got = pos.repetition(usize::MAX);
            if got != want {
                return Err(format!("repetition {got:?}, expected {want:?} ({expected})"));
            }
        }
        "repetition_fourfold" => {
            let want = parse_bool(expected)?;
            let (pos, _) = setup(r, false)?;
            let got = pos.game_repetition();
            if (got != Repetition::None) != want {
                return Err(format!("game_repetition {got:?}, expected fourfold={want}"));
            }
        }
        "declaration_score" => {
            let (black, white) = parse_black_white(expected)?;
            let (pos, _) = setup(r, false)?;
            let got = (
                pos.declaration_points(Color::Black),
                pos.declaration_points(Color::White),
            );
            if got != (black, white) {
                return Err(format!("declaration points {got:?}, expected {:?}", (black, white)));
            }
        }
        "can_declare" => {
            let want = parse_bool(expected)?;
            let (pos, _) = setup(r, false)?;
            let got = pos.can_declare_win(EnteringKingRule::Csa27);
            if got != want {
                return Err(format!("can_declare_win(Csa27) {got}, expected {want}"));
            }
        }
        "declaration_threshold" => {
            let (black, white) = parse_black_white(expected)?;
            let rule = rule_from_note(note)?;
            let (pos, _) = setup(r, false)?;
            let got = (
                pos.declaration_threshold(rule, Color::Black),
                pos.declaration_threshold(rule, Color::White),
            );
            if got != (Some(black), Some(white)) {
                return Err(format!(
                    "{rule:?} thresholds {got:?}, expected black={black} white={white}"
                ));
            }
        }
        other => return Err(format!("unknown kind `{other}`")),
    }
    Ok(())
}

#[test]
fn rules_tsv() {
    let Some(rows) = load("rules.tsv") else {
        return;
    };
    let mut passed = Tally::default();
    let mut refused_rows = Tally::default();
    let mut failures = Failures::default();
    for r in &rows {
        if r.cols.len() != 5 {
            failures.push(r.line, format!("expected 5 columns, found {}", r.cols.len()));
            continue;
        }
        // The core refuses SFENs with more pieces of a kind than one set (e.g. four bishops);
        // such rows are counted apart, and only when the material really is over-full.
        let refused = !r.col(0).starts_with("sfen_")
            && over_full_material(r.col(1)).is_some()
            && matches!(Position::from_sfen(r.col(1)), Err(SfenError::Illegal(_)));
        if refused {
            refused_rows.add(r.col(0));
            eprintln!(
                "rules.tsv line {}: [{}] {} refused by the core: {}",
                r.line,
                r.col(0),
                r.col(1),
                over_full_material(r.col(1)).unwrap_or_default()
            );
            continue;
        }
        match check_rule(r) {
            Ok(()) => passed.add(r.col(0)),
            Err(e) => failures.push(r.line, format!("[{}] {} {}: {e}", r.col(0), r.col(1), r.col(2))),
        }
    }
    eprintln!(
        "rules.tsv: {} of {} rows passed, {} refused (more pieces than one set)\npassed by kind:\n{}refused by kind:\n{}",
        passed.total(),
        rows.len(),
        refused_rows.total(),
        passed.report(),
        refused_rows.report()
    );
    failures.assert_none("rules.tsv");
    assert_eq!(passed.total() + refused_rows.total(), rows.len());
}

#[test]
fn perft_tsv_up_to_two_million_nodes() {
    const MAX_NODES: u64 = 2_000_000;
    let Some(rows) = load("perft.tsv") else {
        return;
    };
    let start = Instant::now();
    let mut failures = Failures::default();
    let (mut ran, mut nodes, mut large, mut over_full) = (0usize, 0u64, 0usize, Vec::new());
    for r in &rows {
        let depth: u32 = r
            .col(1)
            .parse()
            .unwrap_or_else(|e| panic!("line {}: bad depth: {e}", r.line));
        let want: u64 = r
            .col(2)
            .parse()
            .unwrap_or_else(|e| panic!("line {}: bad node count: {e}", r.line));
        if want > MAX_NODES {
            large += 1;
            continue;
        }
        let sfen = r.col(0);
        let mut pos = match Position::from_sfen(sfen) {
            Ok(p) => p,
            // The core rejects material beyond one set; only such rows may be refused.
            Err(e @ SfenError::Illegal(_)) if over_full_material(sfen).is_some() => {
                over_full.push(format!(
                    "line {}: {sfen} depth {depth} ({}): {e}",
                    r.line,
                    over_full_material(sfen).unwrap_or_default()
                ));
                continue;
            }
            Err(e) => {
                failures.push(r.line, format!("{sfen}: SFEN rejected: {e}"));
                continue;
            }
        };
        let got = perft(&mut pos, depth);
        ran += 1;
        nodes += got;
        if got != want {
            failures.push(r.line, format!("{sfen} depth {depth}: expected {want}, got {got}"));
        }
    }
    eprintln!(
        "perft.tsv: ran {ran} rows ({nodes} nodes) in {:.2} s; {large} rows above {MAX_NODES} nodes left to the \
         benchmark tool; {} rows refused because their SFEN has more pieces than one set:",
        start.elapsed().as_secs_f64(),
        over_full.len()
    );
    for o in &over_full {
        eprintln!("  {o}");
    }
    failures.assert_none("perft.tsv");
    assert!(ran > 300, "only {ran} perft rows ran");
}

/// nshogi's listed moves that are missing from `ours`. nshogi's generator does not apply
/// the pawn-drop-mate rule, so a missing move is accepted (and counted in `uchifuzume`) only
/// when it is a pawn drop that the brute-force oracle confirms mates; anything else is an
/// error.
fn check_nshogi_subset(
    pos: &Position,
    listed: &str,
    ours: &BTreeSet<String>,
    encodings: &[Move],
    uchifuzume: &mut Vec<String>,
) -> Result<(), String> {
    let mut bad = Vec::new();
    for text in listed.split_whitespace().filter(|t| !ours.contains(*t)) {
        match Move::from_usi(text) {
            Ok(m) if pos.is_pseudo_legal(m) && is_pawn_drop_mate_slow(pos, m, encodings) => {
                uchifuzume.push(format!("{} {text}", pos.to_sfen()));
            }
            _ => bad.push(text),
        }
    }
    if bad.is_empty() {
        Ok(())
    } else {
        Err(format!("nshogi moves missing from ours: {bad:?}"))
    }
}

#[test]
fn legal_moves_nshogi() {
    let Some(rows) = load("legal_moves_nshogi.tsv") else {
        return;
    };
    let start = Instant::now();
    let encodings = all_move_encodings();
    let mut failures = Failures::default();
    let (mut total_ours, mut total_listed) = (0usize, 0usize);
    let mut uchifuzume = Vec::new();
    for r in &rows {
        let pos = position(r.line, r.col(0));
        let legal = pos.legal_moves();
        let ours = move_texts(&legal);
        if ours.len() != legal.len() {
            failures.push(r.line, format!("duplicate moves in the legal list: {legal:?}"));
        }
        let want: usize = r
            .last()
            .parse()
            .unwrap_or_else(|e| panic!("line {}: bad count: {e}", r.line));
        if legal.len() != want {
            failures.push(
                r.line,
                format!("{}: {} legal moves, cshogi {want}", r.col(0), legal.len()),
            );
        }
        if let Err(e) = check_nshogi_subset(&pos, r.col(2), &ours, &encodings, &mut uchifuzume) {
            failures.push(r.line, format!("{}: {e}", r.col(0)));
        }
        // Also against the brute-force oracle (every move encoding, played on a copy).
        let slow = move_texts(&slow_legal_moves(&pos, &encodings));
        if slow != ours {
            let missing: Vec<_> = slow.difference(&ours).collect();
            let extra: Vec<_> = ours.difference(&slow).collect();
            failures.push(
                r.line,
                format!(
                    "{}: vs brute-force oracle: missing {missing:?}, extra {extra:?}",
                    r.col(0)
                ),
            );
        }
        total_ours += legal.len();
        total_listed += r.col(2).split_whitespace().count();
    }
    eprintln!(
        "legal_moves_nshogi.tsv: {} positions, {total_ours} legal moves, every count equal to cshogi's; \
         {total_listed} nshogi moves, all ours except {} pawn-drop mates (uchifuzume, illegal) that nshogi lists; \
         every legal set also equal to the brute-force oracle's; {:.2} s",
        rows.len(),
        uchifuzume.len(),
        start.elapsed().as_secs_f64()
    );
    for u in uchifuzume.iter().take(5) {
        eprintln!("  nshogi lists uchifuzume: {u}");
    }
    failures.assert_none("legal_moves_nshogi.tsv");
}

#[test]
fn legal_checks_nshogi() {
    let Some(rows) = load("legal_checks_nshogi.tsv") else {
        return;
    };
    let start = Instant::now();
    let encodings = all_move_encodings();
    let mut failures = Failures::default();
    let mut total = 0usize;
    let mut uchifuzume = Vec::new();
    for r in &rows {
        let pos = position(r.line, r.col(0));
        let want: usize = r
            .last()
            .parse()
            .unwrap_or_else(|e| panic!("line {}: bad count: {e}", r.line));
        let by_filter: BTreeSet<String> = pos
            .legal_moves()
            .iter()
            .filter(|&&m| pos.gives_check(m))
            .map(ToString::to_string)
            .collect();
        let mut generated = MoveList::new();
        generate_checks::<true>(&pos, &mut generated);
        let by_gen = move_texts(&generated);
        if by_filter.len() != want {
            failures.push(
                r.line,
                format!(
                    "{}: {} legal moves give check, cshogi {want}",
                    r.col(0),
                    by_filter.len()
                ),
            );
        }
        if generated.len() != want || by_gen != by_filter {
            let missing: Vec<_> = by_filter.difference(&by_gen).collect();
            let extra: Vec<_> = by_gen.difference(&by_filter).collect();
            failures.push(
                r.line,
                format!(
                    "{}: generate_checks gave {} (cshogi {want}); missing {missing:?}, extra {extra:?}",
                    r.col(0),
                    generated.len()
                ),
            );
        }
        if let Err(e) = check_nshogi_subset(&pos, r.col(2), &by_gen, &encodings, &mut uchifuzume) {
            failures.push(r.line, format!("{}: {e}", r.col(0)));
        }
        total += want;
    }
    eprintln!(
        "legal_checks_nshogi.tsv: {} positions, {total} checking moves: legal+gives_check and generate_checks both \
         equal cshogi's count everywhere; nshogi's checks all ours except {} pawn-drop mates; {:.2} s",
        rows.len(),
        uchifuzume.len(),
        start.elapsed().as_secs_f64()
    );
    failures.assert_none("legal_checks_nshogi.tsv");
}

/// Whether `m` drops a pawn.
fn is_pawn_drop(m: Move) -> bool {
    m.is_drop() && m.dropped_kind() == PieceKind::Pawn
}

#[test]
fn mate1_nshogi() {
    let Some(rows) = load("mate1_nshogi.tsv") else {
        return;
    };
    let mut failures = Failures::default();
    let mut mating_moves = 0usize;
    for r in &rows {
        let mut pos = position(r.line, r.col(0));
        let before = pos.to_sfen();
        let mates = brute_force_mates(&mut pos);
        mating_moves += mates.len();
        let Some(m) = pos.mate_in_one() else {
            failures.push(
                r.line,
                format!("{}: no mate in one found (brute force: {mates:?})", r.col(0)),
            );
            continue;
        };
        if pos.to_sfen() != before {
            failures.push(r.line, "mate_in_one changed the position");
        }
        if !pos.is_legal_move(m) || is_pawn_drop(m) || !mates.contains(&m) {
            failures.push(
                r.line,
                format!("{}: {m} is illegal, a pawn drop or not a brute-force mate", r.col(0)),
            );
            continue;
        }
        pos.do_move(m);
        if !pos.is_checkmate() {
            failures.push(r.line, format!("{}: {m} does not mate", r.col(0)));
        }
    }
    eprintln!(
        "mate1_nshogi.tsv: {} positions, mate_in_one found a checkmating move in each ({mating_moves} mating moves \
         by brute force)",
        rows.len()
    );
    failures.assert_none("mate1_nshogi.tsv");
}

/// The move cshogi found in a flagged nomate1 row (`FLAG cshogi finds mate-in-1 G*6a`).
fn flagged_move(note: &str) -> Option<&str> {
    let i = note.find("FLAG")?;
    note[i..].split_whitespace().last()
}

/// nshogi says none of these positions has a mate in one. cshogi's `mate_move_in_1ply`
/// flags 147 of them; in every flagged row the side to move is in check and cshogi's move
/// does not answer the check (that routine assumes it is not called in check), so the flag
/// is not a mate: brute force must find no mate anywhere, and each flagged move must be
/// illegal.
#[test]
fn nomate1_nshogi() {
    let Some(rows) = load("nomate1_nshogi.tsv") else {
        return;
    };
    let mut failures = Failures::default();
    let (mut brute_mates, mut flagged, mut in_check) = (0usize, 0usize, 0usize);
    for r in &rows {
        let mut pos = position(r.line, r.col(0));
        let mates = brute_force_mates(&mut pos);
        let found = pos.mate_in_one();
        match found {
            Some(m) if !mates.contains(&m) => {
                failures.push(
                    r.line,
                    format!("{}: mate_in_one gave {m}, not a mate by brute force", r.col(0)),
                );
            }
            None if !mates.is_empty() => {
                failures.push(r.line, format!("{}: mate_in_one missed {mates:?}", r.col(0)));
            }
            _ => {}
        }
        if !mates.is_empty() {
            brute_mates += 1;
            failures.push(
                r.line,
                format!("{}: listed as no mate in one, but {mates:?} mate", r.col(0)),
            );
        }
        in_check += usize::from(pos.in_check());
        if let Some(text) = flagged_move(r.last()) {
            flagged += 1;
            if !pos.in_check() {
                failures.push(r.line, format!("{}: flagged ({text}) but not in check", r.col(0)));
            }
            if let Ok(m) = pos.parse_move(text) {
                failures.push(r.line, format!("{}: cshogi's flagged move {m} is legal", r.col(0)));
            }
        }
    }
    eprintln!(
        "nomate1_nshogi.tsv: {} positions ({in_check} with the side to move in check); mate_in_one agrees with \
         brute force on all; {brute_mates} have a mate in one by brute force; {flagged} flagged by cshogi, each in \
         check with cshogi's move illegal",
        rows.len()
    );
    failures.assert_none("nomate1_nshogi.tsv");
    assert_eq!(brute_mates, 0);
}

/// Replays one game line, checking keys, undo and redo after every move.
fn replay_game(r: &Record) -> Result<usize, String> {
    let (mut pos, moves) = parse_usi_position(r.col(0))?;
    let plies: usize = r.col(1).parse().map_err(|e| format!("bad ply count: {e}"))?;
    if moves.len() != plies {
        return Err(format!("{} moves listed, ply column says {plies}", moves.len()));
    }
    for (i, text) in moves.iter().enumerate() {
        let ply = i + 1;
        let m = pos.parse_move(text).map_err(|e| format!("ply {ply} `{text}`: {e}"))?;
        let keys_before = (pos.board_key(), pos.hand_key());
        let sfen_before = pos.to_sfen();
        pos.do_move(m);
        let keys_after = (pos.board_key(), pos.hand_key());
        if pos.compute_keys() != keys_after {
            return Err(format!(
                "ply {ply} {text}: incremental keys differ from recomputed ones"
            ));
        }
        let sfen_after = pos.to_sfen();
        pos.undo_move(m);
        if (pos.board_key(), pos.hand_key()) != keys_before || pos.to_sfen() != sfen_before {
            return Err(format!(
                "ply {ply} {text}: undo did not restore {sfen_before} (got {})",
                pos.to_sfen()
            ));
        }
        pos.do_move(m);
        if (pos.board_key(), pos.hand_key()) != keys_after || pos.to_sfen() != sfen_after {
            return Err(format!("ply {ply} {text}: redo differs from the first play"));
        }
    }
    let want = r.col(3);
    let got = pos.to_sfen();
    if sfen_without_move_number(&got) != sfen_without_move_number(want) {
        return Err(format!("final position {got}, expected {want}"));
    }
    if got != want {
        return Err(format!("final move number differs: {got} vs {want}"));
    }
    let mate = match r.col(2) {
        "checkmate" => true,
        "not-mate" => false,
        other => return Err(format!("unknown result `{other}`")),
    };
    if pos.is_checkmate() != mate {
        return Err(format!("is_checkmate {}, expected {}", pos.is_checkmate(), r.col(2)));
    }
    Ok(plies)
}

#[test]
fn games_lishogi500() {
    let Some(rows) = load("games_lishogi500.tsv") else {
        return;
    };
    let start = Instant::now();
    let mut failures = Failures::default();
    let (mut games, mut moves, mut mates) = (0usize, 0usize, 0usize);
    for r in &rows {
        match replay_game(r) {
            Ok(n) => {
                games += 1;
                moves += n;
                mates += usize::from(r.col(2) == "checkmate");
            }
            Err(e) => failures.push(r.line, e),
        }
    }
    eprintln!(
        "games_lishogi500.tsv: replayed {games} games, {moves} moves ({mates} end in checkmate) in {:.2} s",
        start.elapsed().as_secs_f64()
    );
    failures.assert_none("games_lishogi500.tsv");
    assert_eq!(games, rows.len());
}

/// Mate in one against brute force on every position reached in the 500 real games and on
/// the first 1,000 three-ply mate problems (positions where checks, interpositions and
/// captures of the checker abound): no missed mate, no false mate.
#[test]
fn mate_in_one_matches_brute_force_on_games_and_mate3() {
    let (Some(games), Some(mate3)) = (load("games_lishogi500.tsv"), load("mate3_yaneuraou.tsv")) else {
        return;
    };
    let start = Instant::now();
    let mut failures = Failures::default();
    let (mut positions, mut with_mate) = (0usize, 0usize);
    let mut judge = |line: usize, pos: &mut Position, failures: &mut Failures| {
        let brute = brute_force_mates(pos);
        let fast = pos.mate_in_one();
        positions += 1;
        with_mate += usize::from(!brute.is_empty());
        match fast {
            Some(m) if !brute.contains(&m) => failures.push(line, format!("{}: {m} is not a mate", pos.to_sfen())),
            None if !brute.is_empty() => failures.push(line, format!("{}: missed mate {}", pos.to_sfen(), brute[0])),
            _ => {}
        }
    };
    for r in &games {
        let Ok((mut pos, moves)) = parse_usi_position(r.col(0)) else {
            failures.push(r.line, String::from("bad game line"));
            continue;
        };
        for text in moves {
            match pos.parse_move(text) {
                Ok(m) => pos.do_move(m),
                Err(e) => {
                    failures.push(r.line, format!("{text}: {e}"));
                    break;
                }
            }
            judge(r.line, &mut pos, &mut failures);
        }
    }
    for r in &mate3 {
        let mut pos = position(r.line, r.col(0));
        judge(r.line, &mut pos, &mut failures);
    }
    eprintln!(
        "mate in one vs brute force: {positions} positions, {with_mate} with a mate in one, {:.2} s",
        start.elapsed().as_secs_f64()
    );
    failures.assert_none("mate_in_one vs brute force");
    assert!(with_mate > 0);
}

/// Solves `pos` and checks the answer independently of the solver's own verification (legal,
/// every attacker move a check) and with the tsume verifier (shortest, longest counted defence,
/// no useless interposition, mate at the end). Returns the length.
fn solved_length(pos: &Position, limit: std::time::Duration) -> Result<usize, String> {
    use soppo_engine::mate::{Claim, MateOutcome, solve, verify};
    use soppo_engine::search::SearchControl;
    match solve(pos, Some(limit), &SearchControl::default(), |_| {}) {
        MateOutcome::Mate(line) => {
            let mut p = pos.clone();
            for (i, m) in line.iter().enumerate() {
                if !p.is_legal_move(*m) || (i % 2 == 0 && !p.gives_check(*m)) {
                    return Err(format!("illegal or non-checking move {m} at ply {}", i + 1));
                }
                p.do_move(*m);
            }
            verify(pos, &line, Claim::Answer).map_err(|e| format!("line of {} plies fails: {e}", line.len()))?;
            Ok(line.len())
        }
        other => Err(format!("{other:?}")),
    }
}

/// The `go mate` solver on the YaneuraOu sets: the first 100 problems of the 3-, 5- and 7-ply
/// sets and the first 30 of the 9- and 11-ply sets are solved with a verified tsume answer no
/// longer than stated (shorter is right: some stated lengths are not shortest), and
/// `nomate.tsv` positions are never answered with a mate (within the stated bound for
/// `nomate<=N` rows).
#[test]
fn mate_solver_on_yaneuraou_samples() {
    use soppo_engine::mate::{MateOutcome, solve};
    use soppo_engine::search::SearchControl;
    use std::time::Duration;
    let (Some(m3), Some(m5), Some(m7), Some(m9), Some(m11), Some(nomate)) = (
        load("mate3_yaneuraou.tsv"),
        load("mate5_yaneuraou.tsv"),
        load("mate7_yaneuraou.tsv"),
        load("mate9_yaneuraou.tsv"),
        load("mate11_yaneuraou.tsv"),
        load("nomate.tsv"),
    ) else {
        return;
    };
    let start = Instant::now();
    let mut failures = Failures::default();
    let mut solved = 0usize;
    for (rows, stated, take) in [
        (&m3, 3usize, 100),
        (&m5, 5, 100),
        (&m7, 7, 100),
        (&m9, 9, 30),
        (&m11, 11, 30),
    ] {
        for r in rows.iter().take(take) {
            let pos = position(r.line, r.col(0));
            match solved_length(&pos, Duration::from_secs(30)) {
                Ok(len) if len <= stated => solved += 1,
                Ok(len) => failures.push(r.line, format!("{len} plies for a {stated}-ply mate")),
                Err(e) => failures.push(r.line, e),
            }
        }
    }
    for r in &nomate {
        let pos = position(r.line, r.col(0));
        let bound = r.col(1).strip_prefix("nomate<=").and_then(|n| n.parse::<usize>().ok());
        let control = SearchControl::default();
        if let MateOutcome::Mate(line) | MateOutcome::Proven(line) =
            solve(&pos, Some(Duration::from_millis(500)), &control, |_| {})
            && bound.is_none_or(|n| line.len() <= n)
        {
            failures.push(
                r.line,
                format!("mate of {} plies where the source says {}", line.len(), r.col(1)),
            );
        }
    }
    eprintln!(
        "mate solver: {solved} of 360 YaneuraOu problems solved, {} nomate rows checked, {:.2} s",
        nomate.len(),
        start.elapsed().as_secs_f64()
    );
    failures.assert_none("mate solver on YaneuraOu samples");
    assert_eq!(solved, 360);
}

/// Useless interpositions: the six regression positions answer exactly their published
/// tsume lengths 3, 3, 3, 1, 1, 5 (game-rule solvers answer 5 to 13).
#[test]
fn mudaai_positions_answer_exact_lengths() {
    let Some(rows) = load("mudaai6.tsv") else { return };
    let mut failures = Failures::default();
    for r in &rows {
        let pos = position(r.line, r.col(0));
        let stated: usize = r.col(1).parse().expect("a length");
        match solved_length(&pos, std::time::Duration::from_secs(30)) {
            Ok(len) if len == stated => {}
            Ok(len) => failures.push(r.line, format!("{len} plies, published {stated}")),
            Err(e) => failures.push(r.line, e),
        }
    }
    failures.assert_none("mudaai6");
    assert_eq!(rows.len(), 6);
}

/// `mate_curated.tsv`: every row with a stated length up to 31 plies meets it with a verified
/// tsume answer (the longer rows, 59 to 1525 plies, are benchmarks for the df-pn prover).
#[test]
fn mate_curated_short_rows_meet_stated_lengths() {
    let Some(rows) = load("mate_curated.tsv") else { return };
    let start = Instant::now();
    let mut failures = Failures::default();
    let mut checked = 0;
    for r in &rows {
        let Ok(stated) = r.col(1).parse::<usize>() else {
            continue;
        };
        if stated > 31 {
            continue;
        }
        checked += 1;
        let pos = position(r.line, r.col(0));
        match solved_length(&pos, std::time::Duration::from_secs(30)) {
            Ok(len) if len <= stated => {}
            Ok(len) => failures.push(r.line, format!("{len} plies, stated {stated}")),
            Err(e) => failures.push(r.line, e),
        }
    }
    eprintln!(
        "mate_curated: {checked} rows up to 31 plies, {:.2} s",
        start.elapsed().as_secs_f64()
    );
    failures.assert_none("mate_curated");
    assert!(checked >= 90, "{checked}");
}

/// Every problem of the mate sets written as KIF (a board diagram with both hands, the side to
/// move, and the first move of its answer where the data gives one) reads back to the same
/// position and move with soppo-kifu.
#[test]
fn mate_sets_round_trip_through_kif() {
    let Some(dir) = soppo_tests::shared_data_dir() else {
        return;
    };
    let mut checked = 0;
    for file in [
        "mate1_nshogi.tsv",
        "mate3_yaneuraou.tsv",
        "mate5_yaneuraou.tsv",
        "mate7_yaneuraou.tsv",
        "mate9_yaneuraou.tsv",
        "mate11_yaneuraou.tsv",
        "mate_curated.tsv",
        "mudaai6.tsv",
        "nomate.tsv",
    ] {
        let Ok(text) = std::fs::read_to_string(dir.join(file)) else {
            eprintln!("skipping {file}: not readable");
            continue;
        };
        for row in text.lines().filter(|l| !l.trim().is_empty() && !l.starts_with('#')) {
            let sfen = row.split('\t').next().unwrap_or_default().trim();
            let Ok(pos) = Position::from_sfen(sfen) else {
                continue;
            };
            // A move to write: the first legal check, if any (the KIF writer's move text).
            let mut checks = MoveList::new();
            generate_checks::<true>(&pos, &mut checks);
            let line: Vec<Move> = checks.iter().take(1).copied().collect();
            let kif = soppo_kifu::write_kif(&pos, &line, &[], &[]);
            let back = soppo_kifu::read(kif.as_bytes(), soppo_kifu::Format::Kif)
                .unwrap_or_else(|e| panic!("{file}: {sfen}: {e}\n{kif}"));
            assert_eq!(
                sfen_without_move_number(&back.start_sfen),
                sfen_without_move_number(&pos.to_sfen()),
                "{file}: {kif}"
            );
            let usi: Vec<String> = line.iter().map(ToString::to_string).collect();
            assert_eq!(back.moves, usi, "{file}: {kif}");
            checked += 1;
        }
    }
    assert!(checked > 5000, "only {checked} problems");
    eprintln!("{checked} problems written as KIF and read back");
}
