//! The house rule for RTL (CONTRIBUTING, "Sub-blocks as components"): a sub-block with a name
//! of its own is a component, and no `update` runs past [`LIMIT`] lines. The `update` functions still
//! longer are listed in [`STILL_LONGER`] with the length they have today, so they can only
//! shrink. `cargo test -p hdl --test update_lengths -- --nocapture` prints every length.

use std::path::Path;

/// Lines from `fn update` to its closing brace, both counted.
const LIMIT: usize = 150;

/// The `update` functions over the limit, with today's length: none since the decoder's sequence
/// and rows and the NIC's two halves became components (issue "One house plan", item 6). A
/// block listed here may only shrink, and must leave the list once it is within the limit.
const STILL_LONGER: &[(&str, usize)] = &[];

/// `(block, file, lines)` for every `update` of an `impl Logic for <block>` in `dir`, recursively.
fn update_lengths(dir: &Path, out: &mut Vec<(String, String, usize)>) {
    let mut entries: Vec<_> = std::fs::read_dir(dir).unwrap().map(|e| e.unwrap().path()).collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            update_lengths(&path, out);
            continue;
        }
        if path.extension().map_or(true, |e| e != "rs") {
            continue;
        }
        let text = std::fs::read_to_string(&path).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        let mut block = None;
        for (i, line) in lines.iter().enumerate() {
            // `impl<..> Logic for Block<..>`, on one line or with `for Block` on the next
            // (indented inside a macro, the block is a macro variable: named `$t` below)
            if line.trim_start().starts_with("impl") && (line.contains(" Logic for ") || line.ends_with(" Logic")) {
                let head = if line.ends_with(" Logic") { format!("{line} {}", lines[i + 1].trim()) } else { line.to_string() };
                let name = &head[head.find(" Logic for ").unwrap() + " Logic for ".len()..];
                let end = name.find(|c: char| !(c.is_alphanumeric() || c == '_' || c == '$')).unwrap_or(name.len());
                block = Some(name[..end].to_string());
            }
            if line.trim_start().starts_with("fn update(&mut self)") {
                let indent = &line[..line.len() - line.trim_start().len()];
                let close = format!("{indent}}}");
                let len = lines[i..].iter().position(|l| *l == close).expect("update's closing brace at its indent") + 1;
                let file = path.strip_prefix(env!("CARGO_MANIFEST_DIR")).unwrap().display().to_string();
                out.push((block.clone().unwrap_or_default(), file, len));
            }
        }
    }
}

#[test]
fn no_update_grows_past_the_limit() {
    let mut all = Vec::new();
    update_lengths(&Path::new(env!("CARGO_MANIFEST_DIR")).join("src"), &mut all);
    assert!(all.len() > 20, "found only {} update functions: is the scan broken?", all.len());
    all.sort_by_key(|(_, _, n)| std::cmp::Reverse(*n));
    for (block, file, n) in &all {
        println!("{n:5}  {block}  ({file})");
    }
    for (block, file, n) in &all {
        match STILL_LONGER.iter().find(|(b, _)| b == block) {
            Some((_, today)) => assert!(n <= today, "{block}'s update ({file}) grew from {today} to {n} lines"),
            None => assert!(*n <= LIMIT, "{block}'s update ({file}) is {n} lines, over {LIMIT}: make a sub-block a component"),
        }
    }
    for (block, today) in STILL_LONGER {
        let n = all.iter().find(|(b, _, _)| b == block).map(|a| a.2);
        assert!(n.is_some_and(|n| n > LIMIT), "{block} is no longer over {LIMIT} lines ({n:?}, listed at {today}): take it off STILL_LONGER");
    }
}
