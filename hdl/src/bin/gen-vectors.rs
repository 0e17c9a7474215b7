//! Regenerate `testbench-vectors/<block>/*.jsonl` from the golden model:
//! `cargo run --release -p hdl --bin gen-vectors [OUT_DIR]`.

fn main() -> std::io::Result<()> {
    let out = std::env::args().nth(1).unwrap_or_else(|| concat!(env!("CARGO_MANIFEST_DIR"), "/../testbench-vectors").into());
    // the AQM and CB-LT have vector formats of their own; the switch blocks come from their list
    let mut sets = vec![("aqm", hdl::aqm::vectors::render())];
    sets.extend(hdl::blocks::vector_files());
    sets.push(("cblt", hdl::cblt::vectors::render()));
    sets.push(("cblt", hdl::cblt::decoder_vectors::render()));
    for (block, files) in sets {
        let dir = std::path::Path::new(&out).join(block);
        std::fs::create_dir_all(&dir)?;
        for (name, text) in files {
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
