//! Regenerate `testbench-vectors/<block>/*.jsonl` from the golden model:
//! `cargo run --release -p hdl --bin gen-vectors [OUT_DIR]`.

fn main() -> std::io::Result<()> {
    let out = std::env::args().nth(1).unwrap_or_else(|| concat!(env!("CARGO_MANIFEST_DIR"), "/../testbench-vectors").into());
    let blocks: [(&str, fn() -> Vec<(&'static str, String)>); 9] = [
        ("aqm", hdl::aqm::vectors::render),
        ("dwrr", hdl::dwrr::vectors::render),
        ("ren", hdl::ren::vectors::render),
        ("seldrop", hdl::seldrop::vectors::render),
        ("shaper", hdl::shaper::vectors::render),
        ("intstamp", hdl::intstamp::vectors::render),
        ("port", hdl::port::vectors::render),
        ("cblt", hdl::cblt::vectors::render),
        ("cblt", hdl::cblt::decoder_vectors::render),
    ];
    for (block, render) in blocks {
        let dir = std::path::Path::new(&out).join(block);
        std::fs::create_dir_all(&dir)?;
        for (name, text) in render() {
            std::fs::write(dir.join(name), text)?;
            println!("wrote {}", dir.join(name).display());
        }
    }
    let dir = std::path::Path::new(&out).join("cblt");
    for (name, bytes) in hdl::cblt::pcap::render() {
        std::fs::write(dir.join(name), bytes)?;
        println!("wrote {}", dir.join(name).display());
    }
    Ok(())
}
