//! How much memory the hash tables may take: what the machine can hold resident.
//!
//! `USI_Hash` accepts sizes up to a terabyte, because the protocol knows nothing of the machine.
//! A table the system cannot map aborted the engine; one larger than physical memory was mapped
//! and then spent the clock on page faults and reclaim (on a 24 GiB machine, `USI_Hash 30000`
//! took 13 s to `readyok` and 7.2 s for a `go byoyomi 300`). So the tables are held to the
//! smaller of physical memory and the cgroup's limit, where one is set, less a margin for the
//! rest of the engine and the system, and to what the system could give now without swapping
//! (Linux's `MemAvailable`: a table beyond it is made resident only by reclaiming memory, page
//! by page, which is what starved the clock; with other programs holding memory a 16 GiB table
//! took 24 s to `readyok` where it takes 3 s on an idle machine): [`TableMemory::usable_mb`].

use std::fmt::Write as _;

/// Where the limit on the tables' memory comes from.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum LimitSource {
    /// The machine's physical memory.
    Physical,
    /// The memory limit of the control group the engine runs in (a container, a systemd unit).
    Cgroup,
}

impl std::fmt::Display for LimitSource {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            LimitSource::Physical => "physical memory",
            LimitSource::Cgroup => "the memory limit of its cgroup",
        })
    }
}

/// What the machine can hold resident, and how much of it the tables may take.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct TableMemory {
    /// Physical memory, or the cgroup's limit where that is smaller, in MiB.
    pub limit_mb: u64,
    pub source: LimitSource,
    /// What the system could give now without swapping, in MiB, where it says
    /// (`MemAvailable` in `/proc/meminfo`).
    pub available_mb: Option<u64>,
}

/// Kept back from the limit for everything but the tables, in MiB: the engine's code, its
/// evaluation and move-ordering tables, thread stacks, the mate solver's other buffers (tens of
/// megabytes together), and the system beside it.
const MIN_MARGIN_MB: u64 = 256;

impl TableMemory {
    /// The limit on this machine; `None` where it cannot be read (then only a failed allocation
    /// limits the tables).
    pub fn of_this_machine() -> Option<TableMemory> {
        let available_mb = sys::available_bytes().map(|b| b >> 20);
        let physical = sys::physical_bytes().map(|b| TableMemory {
            limit_mb: b >> 20,
            source: LimitSource::Physical,
            available_mb,
        });
        let cgroup = sys::cgroup_limit_bytes().map(|b| TableMemory {
            limit_mb: b >> 20,
            source: LimitSource::Cgroup,
            available_mb,
        });
        match (physical, cgroup) {
            (Some(p), Some(c)) => Some(if c.limit_mb < p.limit_mb { c } else { p }),
            (p, c) => p.or(c),
        }
    }

    /// Kept back for the rest of the engine and the system: a sixteenth of the limit, at least
    /// [`MIN_MARGIN_MB`] (but never more than half of it).
    pub fn margin_mb(&self) -> u64 {
        (self.limit_mb / 16).max(MIN_MARGIN_MB).min(self.limit_mb / 2)
    }

    /// The most the tables may take together, in MiB (at least 1), when the engine now holds
    /// `held_mb` MiB of tables that it lets go before making the new ones resident.
    pub fn usable_mb(&self, held_mb: u64) -> u64 {
        let by_limit = self.limit_mb.saturating_sub(self.margin_mb());
        let by_available = self
            .available_mb
            .map_or(u64::MAX, |a| (a + held_mb).saturating_sub(MIN_MARGIN_MB));
        by_limit.min(by_available).max(1)
    }

    /// Why the tables get at most [`TableMemory::usable_mb`], in words.
    pub fn explain(&self, held_mb: u64) -> String {
        let mut text = format!("{} MiB of {}", self.limit_mb, self.source);
        if let Some(a) = self.available_mb
            && (a + held_mb).saturating_sub(MIN_MARGIN_MB) < self.limit_mb.saturating_sub(self.margin_mb())
        {
            let _ = write!(text, ", of which {} MiB is available now", a + held_mb);
        }
        text + ", less a margin for the rest of the engine and the system"
    }
}

/// `MemAvailable` of `/proc/meminfo`, in bytes.
pub fn available_from_meminfo(meminfo: &str) -> Option<u64> {
    let line = meminfo.lines().find(|l| l.starts_with("MemAvailable:"))?;
    let mut words = line.split_whitespace().skip(1);
    let value: u64 = words.next()?.parse().ok()?;
    match words.next() {
        Some("kB") => value.checked_mul(1024),
        None => Some(value),
        Some(_) => None,
    }
}

/// The smallest memory limit among the cgroup files on the way from the engine's own cgroup up
/// to the root, read through `read` (a path's contents, `None` where it does not exist).
///
/// `proc_self_cgroup` is `/proc/self/cgroup`. Version 2 (`0::/path`) keeps the limit in
/// `memory.max` under `/sys/fs/cgroup`, `max` meaning none; version 1 (a line whose controllers
/// include `memory`) in `memory.limit_in_bytes` under `/sys/fs/cgroup/memory`, a huge number
/// meaning none. Inside a container the engine's path may not exist in the container's own
/// mount, whose root then holds the container's limit: every level that exists is read.
pub fn cgroup_limit_from(proc_self_cgroup: &str, read: impl Fn(&str) -> Option<String>) -> Option<u64> {
    // Limits at or beyond this are "no limit" (version 1 writes a page-rounded i64::MAX).
    const UNLIMITED: u64 = 1 << 60;
    let mut best: Option<u64> = None;
    for line in proc_self_cgroup.lines() {
        let mut parts = line.splitn(3, ':');
        let (Some(_id), Some(controllers), Some(path)) = (parts.next(), parts.next(), parts.next()) else {
            continue;
        };
        let (root, file) = if controllers.is_empty() {
            ("/sys/fs/cgroup", "memory.max")
        } else if controllers.split(',').any(|c| c == "memory") {
            ("/sys/fs/cgroup/memory", "memory.limit_in_bytes")
        } else {
            continue;
        };
        let mut dir = path.trim().trim_end_matches('/').to_owned();
        loop {
            if let Some(text) = read(&format!("{root}{dir}/{file}"))
                && let Ok(limit) = text.trim().parse::<u64>()
                && limit < UNLIMITED
            {
                best = Some(best.map_or(limit, |b| b.min(limit)));
            }
            match dir.rfind('/') {
                Some(i) => dir.truncate(i),
                None => break,
            }
        }
    }
    best
}

#[cfg(unix)]
mod sys {
    /// Physical memory in bytes.
    pub fn physical_bytes() -> Option<u64> {
        // SAFETY: `sysconf` only reads system configuration; it takes no pointers.
        let (pages, page_size) = unsafe { (libc::sysconf(libc::_SC_PHYS_PAGES), libc::sysconf(libc::_SC_PAGESIZE)) };
        let (pages, page_size) = (u64::try_from(pages).ok()?, u64::try_from(page_size).ok()?);
        pages.checked_mul(page_size).filter(|&b| b > 0)
    }

    /// What the system could give now without swapping (Linux only).
    pub fn available_bytes() -> Option<u64> {
        if !cfg!(target_os = "linux") {
            return None;
        }
        super::available_from_meminfo(&std::fs::read_to_string("/proc/meminfo").ok()?)
    }

    /// The memory limit of the engine's cgroup, where one is set.
    pub fn cgroup_limit_bytes() -> Option<u64> {
        if !cfg!(target_os = "linux") {
            return None;
        }
        let own = std::fs::read_to_string("/proc/self/cgroup").ok()?;
        super::cgroup_limit_from(&own, |path| std::fs::read_to_string(path).ok())
    }
}

#[cfg(not(unix))]
mod sys {
    // Elsewhere the limit is not read: a table the system cannot give fails to allocate, and
    // the engine then takes a smaller one.
    pub fn physical_bytes() -> Option<u64> {
        None
    }

    pub fn cgroup_limit_bytes() -> Option<u64> {
        None
    }

    pub fn available_bytes() -> Option<u64> {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    fn files(entries: &[(&str, &str)]) -> impl Fn(&str) -> Option<String> {
        let map: HashMap<String, String> = entries
            .iter()
            .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
            .collect();
        move |path| map.get(path).cloned()
    }

    #[test]
    fn cgroup_v2_takes_the_smallest_limit_on_the_way_up() {
        let own = "0::/user.slice/engine.scope\n";
        let read = files(&[
            ("/sys/fs/cgroup/user.slice/engine.scope/memory.max", "max\n"),
            ("/sys/fs/cgroup/user.slice/memory.max", "4294967296\n"),
        ]);
        assert_eq!(cgroup_limit_from(own, read), Some(4 << 30));
        let none = files(&[("/sys/fs/cgroup/user.slice/engine.scope/memory.max", "max\n")]);
        assert_eq!(cgroup_limit_from(own, none), None);
    }

    #[test]
    fn cgroup_v1_reads_the_memory_controller_and_ignores_its_unlimited_value() {
        // As on this project's machines: v1 controllers, the memory one in a nested group.
        let own = "9:name=systemd:/\n4:memory:/process_api/9b05\n1:cpu:/\n0::/\n";
        let unlimited = files(&[
            (
                "/sys/fs/cgroup/memory/process_api/9b05/memory.limit_in_bytes",
                "9223372036854771712\n",
            ),
            ("/sys/fs/cgroup/memory/memory.limit_in_bytes", "9223372036854771712\n"),
        ]);
        assert_eq!(cgroup_limit_from(own, unlimited), None);
        let limited = files(&[
            (
                "/sys/fs/cgroup/memory/process_api/9b05/memory.limit_in_bytes",
                "2147483648",
            ),
            ("/sys/fs/cgroup/memory/memory.limit_in_bytes", "9223372036854771712"),
        ]);
        assert_eq!(cgroup_limit_from(own, limited), Some(2 << 30));
    }

    #[test]
    fn a_container_whose_path_is_not_mounted_reads_its_root() {
        let own = "0::/kubepods/pod1/abc\n";
        let read = files(&[("/sys/fs/cgroup/memory.max", "1073741824")]);
        assert_eq!(cgroup_limit_from(own, read), Some(1 << 30));
        assert_eq!(cgroup_limit_from("garbage\n\n::\n", files(&[])), None);
    }

    #[test]
    fn the_margin_is_a_sixteenth_and_at_least_a_quarter_gigabyte() {
        let m = |limit_mb| TableMemory {
            limit_mb,
            source: LimitSource::Physical,
            available_mb: None,
        };
        assert_eq!(m(24_576).usable_mb(0), 24_576 - 1_536);
        assert_eq!(m(2_048).usable_mb(0), 2_048 - 256);
        assert_eq!(m(300).usable_mb(0), 150);
        assert_eq!(m(0).usable_mb(0), 1);
    }

    #[test]
    fn memory_others_hold_is_not_counted_but_the_engines_own_tables_are() {
        let busy = TableMemory {
            limit_mb: 24_576,
            source: LimitSource::Physical,
            available_mb: Some(10_000),
        };
        assert_eq!(busy.usable_mb(0), 10_000 - 256);
        // Tables of 4 GiB held now are let go before the new ones are made resident.
        assert_eq!(busy.usable_mb(4_096), 14_096 - 256);
        assert!(
            busy.explain(0).contains("10000 MiB is available now"),
            "{}",
            busy.explain(0)
        );
        let idle = TableMemory {
            available_mb: Some(24_000),
            ..busy
        };
        assert_eq!(idle.usable_mb(0), 24_576 - 1_536);
        assert!(!idle.explain(0).contains("available"), "{}", idle.explain(0));
    }

    #[test]
    fn meminfo_gives_the_available_memory() {
        let text = "MemTotal:       24683584 kB\nMemFree:        24100000 kB\nMemAvailable:   24446764 kB\n";
        assert_eq!(available_from_meminfo(text), Some(24_446_764 * 1024));
        assert_eq!(available_from_meminfo("MemTotal: 1 kB\n"), None);
        assert_eq!(available_from_meminfo("MemAvailable: lots\n"), None);
    }

    #[test]
    fn this_machine_has_a_limit_where_it_can_be_read() {
        if cfg!(unix) {
            let limit = TableMemory::of_this_machine().expect("physical memory is readable on Unix");
            assert!(limit.limit_mb >= 64, "{limit:?}");
            assert!(limit.usable_mb(0) < limit.limit_mb);
        }
    }
}
