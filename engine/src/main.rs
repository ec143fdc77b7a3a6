//! `soppo`: the USI engine. With no arguments it speaks USI on standard input and output;
//! `soppo bench [depth [threads [evalfile [scalar]]]]` runs the bench (with the network in
//! `evalfile`, on its scalar path if asked) and prints `<nodes> nodes <nps> nps` last.

use soppo_engine::controller::{Controller, CurrentControl};
use soppo_engine::eval::nnue::{self, Kernel};
use soppo_engine::{bench, frontend};
use std::sync::{Arc, Mutex};

const USAGE: &str = "usage: soppo            (USI on stdin/stdout)
       soppo bench [depth [threads [evalfile [scalar]]]]";

fn main() {
    // Logging goes to stderr and stays silent unless RUST_LOG asks for it: stdout is the
    // protocol, and some GUIs never drain stderr.
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("off")).init();

    let mut args = std::env::args().skip(1);
    if let Some(cmd) = args.next() {
        if cmd == "bench" {
            let depth = args.next().and_then(|d| d.parse().ok()).unwrap_or(bench::DEFAULT_DEPTH);
            let threads = args.next().and_then(|t| t.parse().ok()).unwrap_or(1);
            let nnue = args.next().map(|path| {
                let net = nnue::load(path.as_ref()).unwrap_or_else(|e| {
                    eprintln!("soppo bench: EvalFile {path}: {e}");
                    std::process::exit(2);
                });
                let kernel = match args.next().as_deref() {
                    None => Kernel::best(),
                    Some("scalar") => Kernel::SCALAR,
                    Some(other) => {
                        eprintln!("soppo bench: `{other}` is not `scalar`\n{USAGE}");
                        std::process::exit(2);
                    }
                };
                eprintln!("soppo bench: the network in {path}, {} kernels", kernel.name());
                (Arc::new(net), kernel)
            });
            println!(
                "{}",
                bench::run_with_settings(depth, &bench::bench_settings(threads, nnue))
            );
            return;
        }
        eprintln!("{USAGE}");
        std::process::exit(2);
    }

    let current: CurrentControl = Arc::new(Mutex::new(None));
    let (tx, rx) = crossbeam_channel::unbounded();
    let reader_current = Arc::clone(&current);
    // The reader blocks on stdin; it is not joined, so `quit` never waits for more input.
    let _reader = std::thread::Builder::new()
        .name("soppo-usi-reader".into())
        .spawn(move || frontend::read_commands(std::io::stdin().lock(), &tx, &reader_current));
    let stdout = std::io::stdout();
    let mut controller = Controller::new(stdout.lock(), current);
    controller.run(&rx);
}
