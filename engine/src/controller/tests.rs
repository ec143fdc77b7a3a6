//! The controller driven line by line, without a process.

use super::report::mate_info_message;
use super::{Command, Controller, CurrentControl};
use crate::mate::MateProgress;
use soppo_core::{Move, Position};
use soppo_usi::parse_gui_line;
use std::time::{Duration, Instant};

/// Sends one GUI line and waits until any search it started has answered.
fn send(c: &mut Controller<Vec<u8>>, line: &str) {
    let msg = parse_gui_line(line).expect("a valid line");
    assert!(c.handle(Command::Gui(msg)));
    let since = Instant::now();
    while c.job.is_some() {
        assert!(since.elapsed() < Duration::from_secs(60), "`{line}` did not finish");
        if let Ok(ev) = c.events_rx.recv_timeout(Duration::from_millis(100)) {
            c.on_event(ev);
        }
    }
}

/// Whether the table holds a position one move from the start (the root of every search
/// below; the root itself is not stored).
fn holds_root(c: &Controller<Vec<u8>>) -> bool {
    let tt = c.tt.as_ref().expect("a table after isready");
    let mut pos = Position::startpos();
    pos.legal_moves().into_iter().any(|&m| {
        pos.do_move(m);
        let found = tt.probe(pos.key()).is_some();
        pos.undo_move(m);
        found
    })
}

#[test]
fn go_mate_lets_the_search_table_go_on_a_long_problem_only() {
    let mut c = Controller::new(Vec::new(), CurrentControl::default());
    send(&mut c, "setoption name USI_Hash value 1");
    send(&mut c, "isready");
    send(&mut c, "position startpos");
    send(&mut c, "go depth 3");
    assert!(holds_root(&c));
    // Mate in one (the gold drops on 5b, guarded by the pawn on 5c), answered at once: the
    // table comes back with the answer, entries and all.
    send(&mut c, "position sfen 4k4/9/4P4/9/9/9/9/9/9 b G2r2b3g4s4n4l17p 1");
    send(&mut c, "go mate 5000");
    assert!(holds_root(&c), "the table is kept through a quick `go mate`");
    // Shogi Zuko 99 (117 plies) runs to its limit: the table is let go while it solves.
    send(
        &mut c,
        "position sfen k1+P4n1/2L+P2sL1/r4+P+P1P/+BpP+Pl1+Rg1/NP1S+PP+p1g/2L+p1g+P1+P/Ps1G1+P1N1/1sN1P4/B8 b - 1",
    );
    send(&mut c, "go mate 400");
    assert!(
        c.tt.is_none(),
        "the search's table is not held through a long `go mate`"
    );
    send(&mut c, "isready");
    assert!(c.tt.as_ref().is_some_and(|t| !t.is_dirty() && t.size_mb() == 1));
    // A `go` straight after a long `go mate`, with no `isready` between, allocates it too.
    send(&mut c, "go mate 400");
    assert!(c.tt.is_none());
    send(&mut c, "position startpos");
    send(&mut c, "go depth 3");
    assert!(holds_root(&c));
    let out = String::from_utf8(c.out.clone()).unwrap();
    let answers: Vec<&str> = out.lines().filter(|l| l.starts_with("checkmate")).collect();
    assert_eq!(answers, ["checkmate G*5b", "checkmate timeout", "checkmate timeout"]);
    assert_eq!(out.lines().filter(|l| l.starts_with("bestmove")).count(), 2);
}

#[test]
fn the_table_is_emptied_at_isready_between_games_and_kept_within_one() {
    let mut c = Controller::new(Vec::new(), CurrentControl::default());
    send(&mut c, "setoption name USI_Hash value 1");
    send(&mut c, "isready");
    assert!(!c.tt.as_ref().unwrap().is_dirty());
    // Each line, then whether the table must hold the searches' results after it.
    let script: &[(&str, Option<bool>)] = &[
        // Shogidokoro's order: isready, usinewgame, then the game.
        ("usinewgame", None),
        ("position startpos", None),
        ("go depth 4", Some(true)),
        // An isready in the middle of a game keeps the table.
        ("isready", Some(true)),
        // gameover, then isready: the next game starts with an empty table.
        ("gameover win", None),
        ("isready", Some(false)),
        ("usinewgame", None),
        ("go depth 4", Some(true)),
        // ShogiArena's order, usinewgame then isready: emptied at the isready, not before.
        ("usinewgame", Some(true)),
        ("isready", Some(false)),
        // A usinewgame right before go, with no isready after it: the clock runs, so the
        // table is not emptied then; a new game's isready still empties it.
        ("go depth 4", None),
        ("usinewgame", None),
        ("go depth 4", Some(true)),
        ("gameover lose", None),
        ("isready", Some(false)),
    ];
    for (i, &(line, holds)) in script.iter().enumerate() {
        send(&mut c, line);
        if let Some(holds) = holds {
            assert_eq!(holds_root(&c), holds, "after step {i}, `{line}`");
        }
        if holds == Some(false) {
            let tt = c.tt.as_ref().unwrap();
            assert!(!tt.is_dirty() && tt.hashfull() == 0, "after step {i}, `{line}`");
        }
    }
    let out = String::from_utf8(c.out.clone()).unwrap();
    assert_eq!(out.lines().filter(|l| l.starts_with("bestmove")).count(), 4);
    assert_eq!(out.lines().filter(|l| *l == "readyok").count(), 5);
}

#[test]
fn mate_progress_shows_a_proven_line_as_pv() {
    let mut p = MateProgress {
        depth: 0,
        nodes: 5000,
        elapsed: Duration::from_millis(250),
        hashfull_permille: 3,
        proven_line: None,
        searching_line: None,
    };
    assert_eq!(
        mate_info_message(&p).to_string(),
        "info nodes 5000 nps 20000 time 250 hashfull 3"
    );
    p.depth = 7;
    p.proven_line = Some(["G*5b", "4a5b", "S*4b"].map(|m| Move::from_usi(m).unwrap()).to_vec());
    assert_eq!(
        mate_info_message(&p).to_string(),
        "info depth 7 nodes 5000 nps 20000 time 250 hashfull 3 pv G*5b 4a5b S*4b"
    );
}
