// glibc's malloc spends a third of a `check` run in allocation (parse trees are many small nodes, built on several
// threads); mimalloc roughly halves that. It is set in the binary only, so library users choose their own.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() {
    std::process::exit(foreach_ls::run(return_freed_memory_at_once));
}

/// Runs before `check` loads anything: mimalloc gives the pages it frees back to the system at once, instead of
/// about 10 ms later and only when the same thread allocates again, which for a thread that goes idle is never.
///
/// `check`'s peak resident memory is one of its goals (under 4x the configuration it reads, `docs/performance.md`):
/// on the dev corpus this takes it from about 92 to 83 MB, for about 0.1 s more in the kernel. The language server
/// keeps mimalloc's default: it is not short of memory, and an edit must not wait on the kernel. A
/// `MIMALLOC_PURGE_DELAY` in the environment wins, as mimalloc documents.
#[allow(unsafe_code)]
fn return_freed_memory_at_once() {
    // `mi_option_purge_delay` of mimalloc v2's `mimalloc.h`: libmimalloc-sys names only the options before it. The
    // number belongs to v2, so it is set only where v2 is what runs.
    const PURGE_DELAY: libmimalloc_sys::mi_option_t = 15;
    if is_v2(mimalloc::MiMalloc.version()) && std::env::var_os("MIMALLOC_PURGE_DELAY").is_none() {
        // SAFETY: `mi_option_set` stores a number in mimalloc's table of options, which is safe at any time and from
        // any thread; 0 is a valid purge delay (purge at once).
        unsafe { libmimalloc_sys::mi_option_set(PURGE_DELAY, 0) }
    }
}

/// Whether mimalloc's `mi_version()` (major * 10000 + minor * 100 + patch: 20302 for 2.3.2) is of the v2 line.
fn is_v2(version: u32) -> bool {
    version / 10_000 == 2
}

#[cfg(test)]
mod tests {
    use super::is_v2;

    #[test]
    fn the_linked_mimalloc_is_the_v2_whose_option_number_main_sets() {
        let version = mimalloc::MiMalloc.version();
        assert!(is_v2(version), "mimalloc {version} is linked; PURGE_DELAY's number is v2's");
        assert!(is_v2(20302) && is_v2(20000) && !is_v2(30104) && !is_v2(10811));
    }
}
