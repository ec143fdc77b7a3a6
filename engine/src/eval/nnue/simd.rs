//! The inner loops of the network: updating an accumulator by a few input rows, and the
//! forward pass from two accumulators to the evaluation. Two implementations that give the same
//! results bit for bit: a portable scalar one, and AVX2, chosen at run time
//! ([`Kernel::best`]), so that the release binary runs on any x86-64 and is fast where the CPU
//! has AVX2.
//!
//! Why they agree exactly: everything is integer arithmetic, and every sum wraps (in `i16` for
//! the accumulators, in `i32` for the layers), so the order of the additions does not matter.
//! The AVX2 dense layers multiply with `_mm256_maddubs_epi16`, which adds two products
//! `u8 × i8` into an `i16` with signed saturation; the activations are clipped to 0..=127, so
//! such a pair lies within 2 × 127 × (−128) = −32 512 and 2 × 127 × 127 = 32 258, inside `i16`:
//! it never saturates. Packing the sums down to bytes saturates, but a saturated value is then
//! clipped to 0..=127 exactly as the unsaturated one would be.

use super::network::{HALF, L1, L2, Network};

/// Which implementation runs. It can only be made for what the CPU can run: [`Kernel::avx2`]
/// is `None` without AVX2.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Kernel(Inner);

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Inner {
    Scalar,
    /// Only made after `is_x86_feature_detected!("avx2")`.
    #[cfg(target_arch = "x86_64")]
    Avx2,
}

impl Kernel {
    /// The portable implementation.
    pub const SCALAR: Kernel = Kernel(Inner::Scalar);

    /// AVX2, if this CPU has it.
    pub fn avx2() -> Option<Kernel> {
        #[cfg(target_arch = "x86_64")]
        if std::arch::is_x86_feature_detected!("avx2") {
            return Some(Kernel(Inner::Avx2));
        }
        None
    }

    /// The fastest implementation this CPU runs.
    pub fn best() -> Kernel {
        Kernel::avx2().unwrap_or(Kernel::SCALAR)
    }

    /// Every implementation this CPU runs (the tests compare them).
    pub fn available() -> Vec<Kernel> {
        std::iter::once(Kernel::SCALAR).chain(Kernel::avx2()).collect()
    }

    /// Its name, for reports.
    pub fn name(self) -> &'static str {
        match self.0 {
            Inner::Scalar => "scalar",
            #[cfg(target_arch = "x86_64")]
            Inner::Avx2 => "AVX2",
        }
    }

    /// `out` = `parent` − the feature transformer's rows `removed` + its rows `added` (wrapping,
    /// as [`Network::refresh`] adds).
    ///
    /// # Panics
    /// When an input is not below the net's number of inputs.
    #[inline]
    pub fn update(
        self,
        net: &Network,
        parent: &[i16; HALF],
        out: &mut [i16; HALF],
        removed: &[usize],
        added: &[usize],
    ) {
        match self.0 {
            Inner::Scalar => scalar::update(net, parent, out, removed, added),
            #[cfg(target_arch = "x86_64")]
            // SAFETY: `Inner::Avx2` is only made where the CPU has been found to run AVX2.
            Inner::Avx2 => unsafe { avx2::update(net, parent, out, removed, added) },
        }
    }

    /// The output sum of the accumulators `own` (the side to move's) and `enemy`: the same as
    /// [`Network::propagate`].
    #[inline]
    pub fn propagate(self, net: &Network, own: &[i16; HALF], enemy: &[i16; HALF]) -> i32 {
        match self.0 {
            Inner::Scalar => scalar::propagate(net, own, enemy),
            #[cfg(target_arch = "x86_64")]
            // SAFETY: `Inner::Avx2` is only made where the CPU has been found to run AVX2.
            Inner::Avx2 => unsafe { avx2::propagate(net, own, enemy) },
        }
    }
}

/// The portable implementation (the compiler vectorises its loops with what every x86-64 has).
mod scalar {
    use super::{HALF, L1, L2, Network};

    pub(super) fn update(
        net: &Network,
        parent: &[i16; HALF],
        out: &mut [i16; HALF],
        removed: &[usize],
        added: &[usize],
    ) {
        *out = *parent;
        for &r in removed {
            for (a, &w) in out.iter_mut().zip(net.row(r)) {
                *a = a.wrapping_sub(w);
            }
        }
        for &i in added {
            for (a, &w) in out.iter_mut().zip(net.row(i)) {
                *a = a.wrapping_add(w);
            }
        }
    }

    /// The dot product of `w` and `x`, wrapping (it cannot overflow for clipped inputs).
    #[inline(always)]
    fn dot(w: &[i8], x: &[u8]) -> i32 {
        const _: () = assert!(HALF.is_multiple_of(16) && L1.is_multiple_of(16) && L2.is_multiple_of(16));
        debug_assert!(w.len() == x.len() && x.len().is_multiple_of(16));
        // Sixteen lanes of sums, which the compiler keeps in vector registers.
        let mut lanes = [0i32; 16];
        for (w, x) in w.chunks_exact(16).zip(x.chunks_exact(16)) {
            for ((s, &w), &x) in lanes.iter_mut().zip(w).zip(x) {
                *s = s.wrapping_add(i32::from(w) * i32::from(x));
            }
        }
        lanes.iter().fold(0, |a, &b| a.wrapping_add(b))
    }

    /// A hidden layer: `(bias + w · x) >> 6`, clipped to 0..=127.
    #[inline(always)]
    fn layer<const OUT: usize>(bias: &[i32; OUT], weights: &[i8], x: &[u8]) -> [u8; OUT] {
        let mut h = [0u8; OUT];
        for (o, h) in h.iter_mut().enumerate() {
            let sum = bias[o].wrapping_add(dot(&weights[o * x.len()..(o + 1) * x.len()], x));
            *h = (sum >> 6).clamp(0, 127) as u8;
        }
        h
    }

    /// The output sum, before the scale to centipawns.
    pub(super) fn propagate(net: &Network, own: &[i16; HALF], enemy: &[i16; HALF]) -> i32 {
        let mut input = [0u8; 2 * HALF];
        let (x_own, x_enemy) = input.split_at_mut(HALF);
        for (x, acc) in [(x_own, own), (x_enemy, enemy)] {
            for (x, &a) in x.iter_mut().zip(acc) {
                *x = a.clamp(0, 127) as u8;
            }
        }
        let h1: [u8; L1] = layer(&net.l1_bias, &net.l1_weights, &input);
        let h2: [u8; L2] = layer(&net.l2_bias, &net.l2_weights, &h1);
        net.out_bias.wrapping_add(dot(&net.out_weights, &h2))
    }
}

/// AVX2: 32 bytes or 16 `i16` at a time.
#[cfg(target_arch = "x86_64")]
mod avx2 {
    use super::{HALF, L1, L2, Network};
    use std::arch::x86_64::{
        __m256i, _mm_add_epi32, _mm_cvtsi128_si32, _mm_shuffle_epi32, _mm256_add_epi16, _mm256_add_epi32,
        _mm256_castsi256_si128, _mm256_extracti128_si256, _mm256_hadd_epi32, _mm256_loadu_si256, _mm256_madd_epi16,
        _mm256_maddubs_epi16, _mm256_max_epi8, _mm256_packs_epi16, _mm256_packs_epi32, _mm256_permute2x128_si256,
        _mm256_permute4x64_epi64, _mm256_permutevar8x32_epi32, _mm256_set1_epi16, _mm256_setr_epi32,
        _mm256_setzero_si256, _mm256_srai_epi32, _mm256_storeu_si256, _mm256_sub_epi16,
    };

    /// Vectors of 16 `i16` in an accumulator.
    const CHUNKS: usize = HALF / 16;

    /// Reads 32 bytes at `p`.
    ///
    /// # Safety
    /// `p` must be valid for reading 32 bytes.
    #[inline(always)]
    unsafe fn load<T>(p: *const T) -> __m256i {
        // SAFETY: the caller says 32 bytes can be read at `p`; the load is unaligned.
        unsafe { _mm256_loadu_si256(p.cast()) }
    }

    #[target_feature(enable = "avx2")]
    pub(super) fn update(
        net: &Network,
        parent: &[i16; HALF],
        out: &mut [i16; HALF],
        removed: &[usize],
        added: &[usize],
    ) {
        let mut acc = [_mm256_setzero_si256(); CHUNKS];
        for (c, a) in acc.iter_mut().enumerate() {
            // SAFETY: `parent` holds HALF = 16 × CHUNKS `i16`, so 16 from 16 c are in it.
            *a = unsafe { load(parent.as_ptr().add(16 * c)) };
        }
        for &r in removed {
            let row = net.row(r);
            for (c, a) in acc.iter_mut().enumerate() {
                // SAFETY: as above, `row` holds HALF `i16`.
                *a = _mm256_sub_epi16(*a, unsafe { load(row.as_ptr().add(16 * c)) });
            }
        }
        for &i in added {
            let row = net.row(i);
            for (c, a) in acc.iter_mut().enumerate() {
                // SAFETY: as above, `row` holds HALF `i16`.
                *a = _mm256_add_epi16(*a, unsafe { load(row.as_ptr().add(16 * c)) });
            }
        }
        for (c, a) in acc.iter().enumerate() {
            // SAFETY: `out` holds HALF `i16` and is borrowed mutably; the store is unaligned.
            unsafe { _mm256_storeu_si256(out.as_mut_ptr().add(16 * c).cast(), *a) };
        }
    }

    /// Eight vectors of eight `i32` to one vector of their eight sums (wrapping), in order.
    #[target_feature(enable = "avx2")]
    #[inline]
    fn sums_of_eight(s: &[__m256i; 8]) -> __m256i {
        // Per 128-bit lane, `hadd(a, b)` is [a0+a1, a2+a3, b0+b1, b2+b3].
        let t0 = _mm256_hadd_epi32(s[0], s[1]);
        let t1 = _mm256_hadd_epi32(s[2], s[3]);
        let t2 = _mm256_hadd_epi32(s[4], s[5]);
        let t3 = _mm256_hadd_epi32(s[6], s[7]);
        // Lane 0 of u0: the low halves' sums of s0..s3; lane 1: their high halves'.
        let u0 = _mm256_hadd_epi32(t0, t1);
        let u1 = _mm256_hadd_epi32(t2, t3);
        let low = _mm256_permute2x128_si256::<0x20>(u0, u1);
        let high = _mm256_permute2x128_si256::<0x31>(u0, u1);
        _mm256_add_epi32(low, high)
    }

    /// A dense layer of 32 outputs over `x` (IN / 32 vectors of bytes, each 0..=127): for each
    /// output `(bias + w · x) >> 6`, as four vectors of eight `i32`, not yet clipped.
    #[target_feature(enable = "avx2")]
    #[inline]
    fn dense32<const IN: usize>(bias: &[i32; 32], weights: &[i8], x: &[__m256i]) -> [__m256i; 4] {
        debug_assert_eq!(x.len() * 32, IN);
        let weights = &weights[..32 * IN];
        let ones = _mm256_set1_epi16(1);
        let mut out = [_mm256_setzero_si256(); 4];
        for (g, out) in out.iter_mut().enumerate() {
            let mut sums = [_mm256_setzero_si256(); 8];
            let rows = &weights[8 * g * IN..8 * (g + 1) * IN];
            for (c, &xc) in x.iter().enumerate() {
                for (k, s) in sums.iter_mut().enumerate() {
                    // SAFETY: `rows` holds eight rows of IN bytes and 32 c + 32 <= IN.
                    let w = unsafe { load(rows.as_ptr().add(k * IN + 32 * c)) };
                    // u8 × i8 pairs: within i16 for inputs of 0..=127 (see the module's text).
                    let pairs = _mm256_maddubs_epi16(xc, w);
                    *s = _mm256_add_epi32(*s, _mm256_madd_epi16(pairs, ones));
                }
            }
            // SAFETY: `bias` holds 32 `i32`, so eight from 8 g are in it.
            let b = unsafe { load(bias.as_ptr().add(8 * g)) };
            *out = _mm256_srai_epi32::<6>(_mm256_add_epi32(sums_of_eight(&sums), b));
        }
        out
    }

    /// 32 `i32` (four vectors of eight, in order) clipped to 0..=127, as 32 bytes in order.
    #[target_feature(enable = "avx2")]
    #[inline]
    fn clip32(v: &[__m256i; 4]) -> __m256i {
        // Packing works per 128-bit lane: the bytes come out as dwords [v0 0..3, v1 0..3,
        // v2 0..3, v3 0..3 | v0 4..7, v1 4..7, v2 4..7, v3 4..7], put back in order below.
        let p01 = _mm256_packs_epi32(v[0], v[1]);
        let p23 = _mm256_packs_epi32(v[2], v[3]);
        let bytes = _mm256_max_epi8(_mm256_packs_epi16(p01, p23), _mm256_setzero_si256());
        _mm256_permutevar8x32_epi32(bytes, _mm256_setr_epi32(0, 4, 1, 5, 2, 6, 3, 7))
    }

    /// The output sum, before the scale to centipawns.
    #[target_feature(enable = "avx2")]
    pub(super) fn propagate(net: &Network, own: &[i16; HALF], enemy: &[i16; HALF]) -> i32 {
        const _: () = assert!(L1 == 32 && L2 == 32 && HALF.is_multiple_of(32));
        let zero = _mm256_setzero_si256();
        // The transformer's outputs clipped to 0..=127, 32 bytes a vector.
        let mut x = [zero; 2 * HALF / 32];
        for (h, acc) in [own, enemy].into_iter().enumerate() {
            for c in 0..HALF / 32 {
                // SAFETY: `acc` holds HALF `i16`, so 32 from 32 c are in it.
                let (a, b) = unsafe { (load(acc.as_ptr().add(32 * c)), load(acc.as_ptr().add(32 * c + 16))) };
                // `packs` interleaves the two inputs' 128-bit halves: [a 0..7, b 0..7 | a 8..15,
                // b 8..15]; the permutation puts the four quarters back in order.
                let bytes = _mm256_max_epi8(_mm256_packs_epi16(a, b), zero);
                x[h * HALF / 32 + c] = _mm256_permute4x64_epi64::<0b11_01_10_00>(bytes);
            }
        }
        let h1 = clip32(&dense32::<{ 2 * HALF }>(&net.l1_bias, &net.l1_weights, &x));
        let h2 = clip32(&dense32::<L1>(&net.l2_bias, &net.l2_weights, &[h1]));
        // SAFETY: `out_weights` holds L2 = 32 bytes.
        let w = unsafe { load(net.out_weights.as_ptr()) };
        let s = _mm256_madd_epi16(_mm256_maddubs_epi16(h2, w), _mm256_set1_epi16(1));
        let s = _mm_add_epi32(_mm256_castsi256_si128(s), _mm256_extracti128_si256::<1>(s));
        let s = _mm_add_epi32(s, _mm_shuffle_epi32::<0b01_00_11_10>(s));
        let s = _mm_add_epi32(s, _mm_shuffle_epi32::<0b10_11_00_01>(s));
        net.out_bias.wrapping_add(_mm_cvtsi128_si32(s))
    }
}
