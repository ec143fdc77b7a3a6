//! The one held-out split of every trainer here: a share of the groups (games, or the
//! openings games were cut from) is never trained on, decided by a hash of the run's seed and
//! the group, so the same groups are held out whatever else about the run changes.

use soppo_core::rng::splitmix64;

/// Whether group `key` is held out, with a share `share` of all groups held out.
pub fn held_out(seed: u64, key: u64, share: f64) -> bool {
    let r = splitmix64(seed ^ splitmix64(key));
    #[allow(clippy::cast_precision_loss, reason = "53 bits, exact")]
    let u = (r >> 11) as f64 / (1u64 << 53) as f64;
    u < share
}

/// A group's key from its name (FNV-1a).
pub fn key(name: &str) -> u64 {
    name.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn about_the_share_is_held_out_and_the_same_for_the_same_seed() {
        let held = (0..20_000u64).filter(|&g| held_out(7, g, 0.1)).count();
        assert!((1700..2300).contains(&held), "{held}");
        assert!((0..1000u64).all(|g| held_out(7, g, 0.1) == held_out(7, g, 0.1)));
        assert!((0..1000u64).any(|g| held_out(7, g, 0.5) != held_out(8, g, 0.5)));
        assert!((0..1000u64).all(|g| !held_out(7, g, 0.0) && held_out(7, g, 1.0)));
        assert_ne!(key("opening:1"), key("opening:2"));
    }
}
