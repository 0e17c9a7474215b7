//! JSON Lines vector files: one JSON object per line, `#` lines and blank lines ignored.
//! Every parse error names the file and the line (testbench-vectors/README.md).

use std::fmt;
use std::path::{Path, PathBuf};

/// A vector record with where it came from.
#[derive(Clone, Debug)]
pub struct Located<T> {
    pub line: usize,
    pub item: T,
}

#[derive(Debug)]
pub struct VectorError {
    pub file: PathBuf,
    pub line: usize,
    pub message: String,
}

impl fmt::Display for VectorError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.line == 0 {
            write!(f, "{}: {}", self.file.display(), self.message)
        } else {
            write!(f, "{}:{}: {}", self.file.display(), self.line, self.message)
        }
    }
}

impl std::error::Error for VectorError {}

/// Parse JSON Lines text; `file` is only used in messages.
pub fn parse_jsonl<T: serde::de::DeserializeOwned>(
    file: &Path,
    text: &str,
) -> Result<Vec<Located<T>>, VectorError> {
    let mut out = vec![];
    for (i, raw) in text.lines().enumerate() {
        let l = raw.trim();
        if l.is_empty() || l.starts_with('#') {
            continue;
        }
        let item = serde_json::from_str(l).map_err(|e| VectorError {
            file: file.to_path_buf(),
            line: i + 1,
            message: format!("malformed vector: {e}"),
        })?;
        out.push(Located { line: i + 1, item });
    }
    if out.is_empty() {
        return Err(VectorError { file: file.to_path_buf(), line: 0, message: "no vectors in file".into() });
    }
    Ok(out)
}

/// Read and parse a JSON Lines file.
pub fn read_jsonl<T: serde::de::DeserializeOwned>(file: &Path) -> Result<Vec<Located<T>>, VectorError> {
    let text = std::fs::read_to_string(file).map_err(|e| VectorError {
        file: file.to_path_buf(),
        line: 0,
        message: format!("cannot read: {e}"),
    })?;
    parse_jsonl(file, &text)
}

/// Serialize records as JSON Lines, with a leading comment.
pub fn to_jsonl<T: serde::Serialize>(comment: &str, items: &[T]) -> String {
    let mut s = String::new();
    for l in comment.lines() {
        s.push_str("# ");
        s.push_str(l);
        s.push('\n');
    }
    for it in items {
        s.push_str(&serde_json::to_string(it).expect("vector serializes"));
        s.push('\n');
    }
    s
}

/// Outcome of checking an engine against expectations.
#[derive(Debug, Default)]
pub struct Tally {
    pub passed: usize,
    pub failed: usize,
    /// Human-readable descriptions of the first failures.
    pub failures: Vec<String>,
}

impl Tally {
    pub fn check(&mut self, ok: bool, what: impl FnOnce() -> String) {
        if ok {
            self.passed += 1;
        } else {
            self.failed += 1;
            if self.failures.len() < 20 {
                self.failures.push(what());
            }
        }
    }
    pub fn merge(&mut self, other: Tally) {
        self.passed += other.passed;
        self.failed += other.failed;
        for f in other.failures {
            if self.failures.len() < 20 {
                self.failures.push(f);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn malformed_line_names_file_and_line() {
        let text = "# comment\n{\"a\":1}\n\n{\"a\":}\n";
        let err = parse_jsonl::<serde_json::Value>(Path::new("x.jsonl"), text).unwrap_err();
        assert_eq!(err.line, 4);
        assert!(err.to_string().starts_with("x.jsonl:4: malformed vector"), "{err}");
    }

    #[test]
    fn empty_file_is_an_error() {
        let err = parse_jsonl::<serde_json::Value>(Path::new("e.jsonl"), "# only\n").unwrap_err();
        assert_eq!(err.to_string(), "e.jsonl: no vectors in file");
    }
}
