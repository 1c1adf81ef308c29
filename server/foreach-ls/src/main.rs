fn main() {
    std::process::exit(foreach_ls::run());
}
