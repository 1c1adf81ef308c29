// glibc's malloc spends a third of a `check` run in allocation (parse trees are many small nodes, built on several
// threads); mimalloc roughly halves that. It is set in the binary only, so library users choose their own.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() {
    std::process::exit(foreach_ls::run());
}
