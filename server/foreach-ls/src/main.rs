// glibc's malloc spends a third of a `check` run in allocation (parse trees are many small nodes, built on several
// threads); mimalloc roughly halves that. It is set in the binary only, so library users choose their own.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() {
    std::process::exit(foreach_ls::run(return_freed_memory_soon));
}

/// Runs before `check` loads anything: mimalloc gives the pages it frees back to the system after 2 ms instead of
/// its default second, which a run of `check` hardly outlasts.
///
/// `check`'s peak resident memory is one of its goals (under 4x the configuration it reads, `docs/performance.md`).
/// On the dev corpus this takes it from about 90 to 78-79 MB. Returning pages at once (0 ms) saves no more and makes
/// the kernel fault the same pages in again and again while a workspace of large files is parsed (a 20 MB generated
/// workspace took 0.8 s instead of 0.4-0.5); 2 ms costs it about 0.05 s. The language server keeps mimalloc's
/// default: it is not short of memory, and an edit must not wait on the kernel. A `MIMALLOC_PURGE_DELAY` in the
/// environment wins, as mimalloc documents.
#[allow(unsafe_code)]
fn return_freed_memory_soon() {
    // `mi_option_purge_delay` of mimalloc v3's `mimalloc.h`: libmimalloc-sys names only the options before it. The
    // number belongs to v3, so it is set only where v3 is what runs.
    const PURGE_DELAY: libmimalloc_sys::mi_option_t = 15;
    const MILLISECONDS: std::ffi::c_long = 2;
    if is_v3(mimalloc::MiMalloc.version()) && std::env::var_os("MIMALLOC_PURGE_DELAY").is_none() {
        // SAFETY: `mi_option_set` stores a number in mimalloc's table of options, which is safe at any time and from
        // any thread; any non-negative purge delay is valid.
        unsafe { libmimalloc_sys::mi_option_set(PURGE_DELAY, MILLISECONDS) }
    }
}

/// Whether mimalloc's `mi_version()` (major * 10000 + minor * 100 + patch: 30302 for 3.3.2) is of the v3 line.
fn is_v3(version: u32) -> bool {
    version / 10_000 == 3
}

#[cfg(test)]
mod tests {
    use super::is_v3;

    #[test]
    fn the_linked_mimalloc_is_the_v3_whose_option_number_main_sets() {
        let version = mimalloc::MiMalloc.version();
        assert!(is_v3(version), "mimalloc {version} is linked; PURGE_DELAY's number is v3's");
        assert!(is_v3(30302) && is_v3(30000) && !is_v3(20302) && !is_v3(10811));
    }
}
