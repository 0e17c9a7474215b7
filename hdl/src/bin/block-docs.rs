//! Rewrites the generated register and pin tables of the block READMEs (`hdl/src/*/README.md`)
//! from the register maps and pin lists. `cargo test -p hdl` fails when one is stale.

use hdl::block_docs::{generated, splice, src_dir};

fn main() {
    let mut failed = false;
    for (path, text) in generated() {
        let file = src_dir().join(path);
        let readme = match std::fs::read_to_string(&file) {
            Ok(r) => r,
            Err(e) => {
                eprintln!("block-docs: {}: {e}", file.display());
                failed = true;
                continue;
            }
        };
        match splice(&readme, &text) {
            Some(new) if new != readme => {
                std::fs::write(&file, new).expect("write README");
                println!("updated hdl/src/{path}");
            }
            Some(_) => println!("current hdl/src/{path}"),
            None => {
                eprintln!("block-docs: hdl/src/{path} has no generated-section markers ({:?} … {:?})", hdl::block_docs::BEGIN.trim(), hdl::block_docs::END.trim());
                failed = true;
            }
        }
    }
    std::process::exit(failed as i32);
}
