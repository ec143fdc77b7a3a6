//! Large zeroed buffers taken straight from the operating system, for the hash tables.
//!
//! Why not `Vec` or `alloc_zeroed`: the tables want (1) memory that is zeroed lazily, page by
//! page as it is first touched, so that a large table that is mostly unused costs nothing, and
//! (2) transparent huge pages, so that look-ups spread over hundreds of megabytes do not miss
//! the TLB at nearly every probe. glibc's `calloc` gives (1) only for blocks above its mmap
//! threshold, and that threshold rises (up to 32 MB) once a mapped block has been freed: after
//! that a 16 MB table comes from the heap and is written with zeros in full, every time. So on
//! Unix the buffer is an anonymous private mapping (zero pages, faulted in lazily) with a
//! huge-page hint; elsewhere it falls back to the global allocator's zeroed allocation.

use std::ptr::NonNull;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;

/// Starts loading the cache line at `p` (a look-up soon to come). Any address will do: a
/// prefetch is only a hint and never faults.
#[inline(always)]
pub fn prefetch<T>(p: *const T) {
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
        // SAFETY: SSE is part of the x86_64 baseline, so the instruction exists; a prefetch
        // reads nothing the program sees and never faults, whatever the address.
        unsafe { _mm_prefetch::<_MM_HINT_T0>(p.cast::<i8>()) };
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = p;
}

/// The system could not give a buffer of this size.
#[derive(Copy, Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("the system could not give {} MiB", .bytes >> 20)]
pub struct AllocFailed {
    pub bytes: usize,
}

/// Alignment every buffer has at least (a cache line).
pub const ALIGN: usize = 64;

/// A type with the buffers' alignment, for the dangling pointer of an empty buffer.
#[repr(align(64))]
struct CacheLine;
const _: () = assert!(align_of::<CacheLine>() == ALIGN);

/// An owned, zero-initialised, `ALIGN`-aligned buffer of `len` bytes.
pub struct ZeroedPages {
    ptr: NonNull<u8>,
    len: usize,
    /// The size allocated (`len` until [`ZeroedPages::truncate`]).
    mapped: usize,
}

// SAFETY: the buffer is owned by this value alone (like a `Box<[u8]>`, which is `Send` and
// `Sync`); access goes through `&self` / `&mut self` or through raw pointers whose users
// uphold Rust's aliasing rules themselves.
unsafe impl Send for ZeroedPages {}
// SAFETY: as above; `&ZeroedPages` only hands out a pointer.
unsafe impl Sync for ZeroedPages {}

impl ZeroedPages {
    /// A buffer of `len` zero bytes (`len` may be 0: then nothing is allocated). Aborts through
    /// [`std::alloc::handle_alloc_error`] when the memory cannot be had, as `Vec` does: for
    /// buffers of a fixed size only; a size a user chooses goes through
    /// [`ZeroedPages::try_new`].
    pub fn new(len: usize) -> ZeroedPages {
        ZeroedPages::try_new(len).unwrap_or_else(|_| std::alloc::handle_alloc_error(layout_of(len)))
    }

    /// A buffer of `len` zero bytes, or the error when the system cannot give them.
    pub fn try_new(len: usize) -> Result<ZeroedPages, AllocFailed> {
        if len == 0 {
            return Ok(ZeroedPages {
                ptr: NonNull::<CacheLine>::dangling().cast(),
                len,
                mapped: len,
            });
        }
        let ptr = sys::allocate(len).ok_or(AllocFailed { bytes: len })?;
        Ok(ZeroedPages { ptr, len, mapped: len })
    }

    /// Start of the buffer, aligned to [`ALIGN`]; valid for reads and writes of `len()` bytes.
    pub fn as_ptr(&self) -> NonNull<u8> {
        self.ptr
    }

    pub fn len(&self) -> usize {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Sets every byte to zero again, writing them all, shared among `threads` threads for
    /// buffers of 64 MB and more: afterwards every page is resident, so the first touches of a
    /// search pay no page faults (on this machine, with a gigabyte of fresh pages faulted in
    /// while searching, the first moves of a game at byoyomi 200 took 240–570 ms against a
    /// budget of 160). Faulting fresh pages in is most of the cost (the kernel zeroes each
    /// one), and it is spread over the threads as YaneuraOu spreads its table clearing.
    pub fn zero(&mut self, threads: usize) {
        self.zero_until(threads, None);
    }

    /// [`ZeroedPages::zero`], but no new [`PART`] is begun after `deadline`: returns how many
    /// bytes from the start were zeroed (the whole buffer, or a prefix of whole parts, never
    /// none of a non-empty buffer). Faulting fresh pages in can be far slower than memory
    /// speed (on this project's virtual machines, a first touch of 16 GiB took 3 s once and
    /// 24 s another time), and a `readyok` must not wait for it.
    pub fn zero_until(&mut self, threads: usize, deadline: Option<Instant>) -> usize {
        if self.len == 0 {
            return 0;
        }
        // SAFETY: the buffer holds `len` initialised bytes owned here; `&mut self` makes this
        // borrow the only access while it lives.
        let bytes = unsafe { std::slice::from_raw_parts_mut(self.ptr.as_ptr(), self.len) };
        // Below 64 MB a second thread costs more to start than it saves.
        let threads = if self.len < 64 << 20 { 1 } else { threads.clamp(1, 64) };
        // The threads, this one included, take parts in order until none is left or time is
        // up, so a thread the system refuses (or a slow one) only leaves more parts to the
        // others, and the parts taken are always a prefix. Every part taken is finished.
        let parts = std::sync::Mutex::new(bytes.chunks_mut(PART));
        let taken = AtomicUsize::new(0);
        let work = || {
            loop {
                let part = {
                    let mut parts = parts.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
                    let late = deadline.is_some_and(|d| Instant::now() >= d);
                    if late && taken.load(Ordering::Relaxed) > 0 {
                        None
                    } else {
                        let part = parts.next();
                        if part.is_some() {
                            taken.fetch_add(1, Ordering::Relaxed);
                        }
                        part
                    }
                };
                match part {
                    Some(part) => part.fill(0),
                    None => break,
                }
            }
        };
        if threads == 1 {
            work();
        } else {
            std::thread::scope(|s| {
                for _ in 1..threads {
                    let _ = std::thread::Builder::new().spawn_scoped(s, work);
                }
                work();
            });
        }
        (taken.into_inner() * PART).min(self.len)
    }

    /// Gives back all but the first `len` bytes (a multiple of [`PART`], or the whole length).
    pub fn truncate(&mut self, len: usize) {
        if len >= self.len {
            return;
        }
        debug_assert_eq!(len % PART, 0, "truncated at a part's boundary (page-aligned)");
        // SAFETY: `ptr..ptr + self.len` is ours (from `allocate` of `self.mapped` bytes, of
        // which `self.len` are still in use); the tail from `len` on is page-aligned and no
        // longer reachable once `self.len` is lowered below.
        unsafe { sys::release_tail(self.ptr, self.mapped, len) };
        self.len = len;
    }
}

/// The unit of [`ZeroedPages::zero_until`] and [`ZeroedPages::truncate`]: 16 MiB, a multiple of
/// every page size (huge pages included).
pub const PART: usize = 16 << 20;

impl Drop for ZeroedPages {
    fn drop(&mut self) {
        if self.mapped != 0 {
            // SAFETY: `ptr` came from `sys::allocate(self.mapped)`; what `truncate` gave back
            // is not released again (see `release`), the rest once, here.
            unsafe { sys::release(self.ptr, self.mapped, self.len) }
        }
    }
}

/// Types whose all-zero bit pattern is a valid value (plain integers, atomics of them, and
/// structs of those).
///
/// # Safety
/// An implementor must be valid when all its bytes are zero and have no drop glue.
pub unsafe trait Zeroable {}

/// `len` values of `T`, all zero, in [`ZeroedPages`]: the hash tables' storage.
pub struct ZeroedSlice<T: Zeroable> {
    pages: ZeroedPages,
    len: usize,
    _values: std::marker::PhantomData<T>,
}

impl<T: Zeroable> ZeroedSlice<T> {
    const ALIGNED: () = assert!(ALIGN >= align_of::<T>(), "the pages' alignment covers T's");

    /// `len` zero values; aborts when the memory cannot be had (see [`ZeroedPages::new`]).
    pub fn new(len: usize) -> ZeroedSlice<T> {
        ZeroedSlice::try_new(len)
            .unwrap_or_else(|e| std::alloc::handle_alloc_error(layout_of(e.bytes.min(isize::MAX as usize))))
    }

    /// `len` zero values, or the error when the system cannot give them.
    pub fn try_new(len: usize) -> Result<ZeroedSlice<T>, AllocFailed> {
        let () = Self::ALIGNED;
        let bytes = len
            .checked_mul(size_of::<T>())
            .ok_or(AllocFailed { bytes: usize::MAX })?;
        Ok(ZeroedSlice {
            pages: ZeroedPages::try_new(bytes)?,
            len,
            _values: std::marker::PhantomData,
        })
    }

    /// Every value back to zero, on up to `threads` threads (see [`ZeroedPages::zero`]).
    pub fn zero(&mut self, threads: usize) {
        self.pages.zero(threads);
    }

    /// [`ZeroedPages::zero_until`]: how many values from the start were zeroed.
    pub fn zero_until(&mut self, threads: usize, deadline: Option<Instant>) -> usize {
        self.pages.zero_until(threads, deadline) / size_of::<T>()
    }

    /// Keeps the first `len` values, giving back the memory of the rest where the system
    /// allows; `len` times the size of `T` must be a multiple of [`PART`].
    pub fn truncate(&mut self, len: usize) {
        if len < self.len {
            self.pages.truncate(len * size_of::<T>());
            self.len = len;
        }
    }
}

impl<T: Zeroable> std::ops::Deref for ZeroedSlice<T> {
    type Target = [T];
    fn deref(&self) -> &[T] {
        // SAFETY: the pages are aligned for `T` (checked in `new`) and hold `len` values; they
        // started all zero, a valid `T` (`Zeroable`), and are only written through this slice.
        unsafe { std::slice::from_raw_parts(self.pages.as_ptr().cast::<T>().as_ptr(), self.len) }
    }
}

impl<T: Zeroable> std::ops::DerefMut for ZeroedSlice<T> {
    fn deref_mut(&mut self) -> &mut [T] {
        // SAFETY: as for `deref`; `&mut self` makes the borrow unique.
        unsafe { std::slice::from_raw_parts_mut(self.pages.as_ptr().cast::<T>().as_ptr(), self.len) }
    }
}

/// The layout of a `len`-byte buffer (for the fallback allocator, and for reporting a failed
/// allocation).
fn layout_of(len: usize) -> std::alloc::Layout {
    std::alloc::Layout::from_size_align(len, ALIGN).unwrap_or(std::alloc::Layout::new::<[u8; ALIGN]>())
}

#[cfg(unix)]
mod sys {
    use super::ALIGN;
    use std::ptr::NonNull;

    /// Huge pages are worth asking for from this size up (one 2 MB page on x86-64).
    #[cfg(target_os = "linux")]
    const HUGE: usize = 2 << 20;

    /// A fresh zeroed mapping of `len` bytes, `None` when the system refuses it.
    pub fn allocate(len: usize) -> Option<NonNull<u8>> {
        // SAFETY: an anonymous private mapping at an address of the kernel's choosing touches no
        // existing memory; the result is checked against MAP_FAILED before use.
        let p = unsafe {
            libc::mmap(
                std::ptr::null_mut(),
                len,
                libc::PROT_READ | libc::PROT_WRITE,
                libc::MAP_PRIVATE | libc::MAP_ANONYMOUS,
                -1,
                0,
            )
        };
        if p == libc::MAP_FAILED {
            return None;
        }
        #[cfg(target_os = "linux")]
        if len >= HUGE {
            // Only a hint: where transparent huge pages are off, the call fails or does
            // nothing and the mapping keeps working with small pages.
            // SAFETY: the range is exactly the mapping just made.
            unsafe { libc::madvise(p, len, libc::MADV_HUGEPAGE) };
        }
        debug_assert_eq!(p as usize % ALIGN, 0, "mappings are page-aligned");
        NonNull::new(p.cast())
    }

    /// Releases the first `len` bytes of a mapping of `mapped` bytes whose tail beyond `len`
    /// was released by [`release_tail`] (or `len == mapped`).
    ///
    /// # Safety
    /// `ptr` and `mapped` must be a mapping from [`allocate`], its first `len` bytes not
    /// released before.
    pub unsafe fn release(ptr: NonNull<u8>, _mapped: usize, len: usize) {
        if len == 0 {
            return;
        }
        // SAFETY: by the caller's contract the range is the part of one mapping of ours still
        // mapped. A failure could only leak it, so the result is not needed.
        unsafe { libc::munmap(ptr.as_ptr().cast(), len) };
    }

    /// Releases the bytes from `len` to `mapped` of a mapping.
    ///
    /// # Safety
    /// As for [`release`], with `len` page-aligned; the tail is not used afterwards.
    pub unsafe fn release_tail(ptr: NonNull<u8>, mapped: usize, len: usize) {
        // SAFETY: by the caller's contract the range is the tail of one mapping of ours, at a
        // page boundary.
        unsafe { libc::munmap(ptr.as_ptr().add(len).cast(), mapped - len) };
    }
}

#[cfg(not(unix))]
mod sys {
    use super::layout_of;
    use std::ptr::NonNull;

    /// A fresh zeroed block of `len` bytes, `None` when the allocator refuses it.
    pub fn allocate(len: usize) -> Option<NonNull<u8>> {
        let layout = std::alloc::Layout::from_size_align(len, super::ALIGN).ok()?;
        // SAFETY: `len` > 0 (checked by the caller), so the layout is not zero-sized.
        NonNull::new(unsafe { std::alloc::alloc_zeroed(layout) })
    }

    /// # Safety
    /// `ptr` and `mapped` must come from [`allocate`], not released before.
    pub unsafe fn release(ptr: NonNull<u8>, mapped: usize, _len: usize) {
        // SAFETY: by the caller's contract, allocated with exactly this layout.
        unsafe { std::alloc::dealloc(ptr.as_ptr(), layout_of(mapped)) }
    }

    /// The allocator cannot give back part of a block: the tail stays until the whole goes.
    ///
    /// # Safety
    /// Nothing to uphold; `unsafe` only to match the Unix version.
    pub unsafe fn release_tail(_ptr: NonNull<u8>, _mapped: usize, _len: usize) {}
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn buffers_are_zeroed_aligned_and_writable() {
        for len in [0, 100, 4096, 3 << 20] {
            let pages = ZeroedPages::new(len);
            assert_eq!(pages.len(), len);
            assert_eq!(pages.as_ptr().as_ptr() as usize % ALIGN, 0);
            if len == 0 {
                continue;
            }
            // SAFETY: the buffer holds `len` bytes, initialised (to zero), and is owned here.
            let bytes = unsafe { std::slice::from_raw_parts_mut(pages.as_ptr().as_ptr(), len) };
            assert!(bytes.iter().all(|&b| b == 0));
            bytes[len - 1] = 7;
            bytes[0] = 9;
            assert_eq!((bytes[0], bytes[len - 1]), (9, 7));
        }
    }

    #[test]
    fn zeroing_clears_what_was_written_and_the_buffer_stays_usable() {
        for (len, threads) in [(0, 1), (100, 1), (4096, 2), (3 << 20, 1), (65 << 20, 3)] {
            let mut pages = ZeroedPages::new(len);
            let fill = |pages: &mut ZeroedPages, value: u8| {
                // SAFETY: the buffer holds `len` initialised bytes, owned here and borrowed
                // mutably for this call only.
                let bytes = unsafe { std::slice::from_raw_parts_mut(pages.as_ptr().as_ptr(), len) };
                bytes.iter_mut().step_by(997).for_each(|b| *b = value);
                if let Some(last) = bytes.last_mut() {
                    *last = value;
                }
            };
            fill(&mut pages, 0xA5);
            pages.zero(threads);
            // SAFETY: as above.
            let bytes = unsafe { std::slice::from_raw_parts(pages.as_ptr().as_ptr(), len) };
            assert!(bytes.iter().all(|&b| b == 0), "{len} bytes");
            fill(&mut pages, 3);
            // SAFETY: as above.
            let bytes = unsafe { std::slice::from_raw_parts(pages.as_ptr().as_ptr(), len) };
            assert!(len == 0 || bytes[len - 1] == 3);
        }
    }

    #[test]
    fn a_size_the_system_cannot_give_is_an_error_not_an_abort() {
        // Far beyond any machine's memory and address space.
        let e = ZeroedPages::try_new(usize::MAX / 4)
            .err()
            .expect("no system maps a quarter of the address space");
        assert_eq!(e.bytes, usize::MAX / 4);
        assert!(ZeroedSlice::<Word>::try_new(usize::MAX / 4).is_err());
        assert_eq!(ZeroedPages::try_new(4096).map(|p| p.len()), Ok(4096));
    }

    #[test]
    fn zeroing_until_a_deadline_covers_a_prefix_of_whole_parts_and_truncating_keeps_it() {
        let len = 6 * PART;
        let mut pages = ZeroedPages::new(len);
        // SAFETY: the buffer holds `len` initialised bytes, owned here.
        unsafe { std::ptr::write_bytes(pages.as_ptr().as_ptr(), 0xA5, len) };
        // A deadline already past: one part is still done, and the rest left as it was.
        let done = pages.zero_until(2, Some(Instant::now()));
        assert!(done >= PART && done.is_multiple_of(PART) && done < len, "{done}");
        // SAFETY: as above.
        let bytes = unsafe { std::slice::from_raw_parts(pages.as_ptr().as_ptr(), len) };
        assert!(bytes[..done].iter().all(|&b| b == 0));
        assert!(bytes[done..].iter().all(|&b| b == 0xA5));
        pages.truncate(done);
        assert_eq!(pages.len(), done);
        assert_eq!(pages.zero_until(2, None), done);
        let mut small = ZeroedPages::new(100);
        assert_eq!(small.zero_until(1, Some(Instant::now())), 100);
    }

    struct Word(u64);
    // SAFETY: a plain integer; all zero is the value 0.
    unsafe impl Zeroable for Word {}

    #[test]
    fn a_zeroed_slice_reads_zero_after_zero() {
        let mut slice = ZeroedSlice::<Word>::new(1 << 18);
        slice.iter_mut().enumerate().for_each(|(i, v)| v.0 = i as u64 + 1);
        slice.zero(2);
        assert!(slice.iter().all(|v| v.0 == 0));
    }
}
