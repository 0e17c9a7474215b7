//! Figures read from a nextpnr-ice40 or nextpnr-ecp5 log: utilisation, the post-route Fmax, and the critical path.

/// `(used, available)` from a utilisation line `KEY: N/ M`.
pub fn utilisation(log: &str, key: &str) -> (u32, u32) {
    for l in log.lines() {
        let t = l.trim_start_matches("Info:").trim();
        if let Some(rest) = t.strip_prefix(key) {
            let rest = rest.trim_start_matches(':').trim();
            let mut it = rest.split('/');
            let used = it.next().and_then(|x| x.trim().parse().ok()).unwrap_or(0);
            let avail = it.next().and_then(|x| x.split_whitespace().next()).and_then(|x| x.parse().ok()).unwrap_or(0);
            return (used, avail);
        }
    }
    (0, 0)
}

/// The last "Max frequency for clock" figure (the one after routing), MHz.
pub fn fmax(log: &str) -> Option<f64> {
    log.lines()
        .filter(|l| l.contains("Max frequency for clock"))
        .filter_map(|l| l.split("': ").nth(1))
        .filter_map(|x| x.split_whitespace().next()?.parse().ok())
        .last()
}

/// The post-route critical path of the clock domain: where it starts and ends, and its delays.
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct CriticalPath {
    /// The launching cell, as yosys named it after the register it feeds (e.g. `dut.next.q`).
    pub from: String,
    /// The capturing cell.
    pub to: String,
    /// Cells the path goes through (LUTs and carries), the launching one included.
    pub cells: u32,
    pub logic_ns: f64,
    pub routing_ns: f64,
}

/// The design name yosys gave a cell: everything before the first `_SB_` or `_TRELLIS_` (the
/// mapped primitive suffixes of iCE40 and ECP5) or `$`, without the pin.
fn cell_name(s: &str) -> String {
    let s = s.rsplit_once('.').map_or(s, |(cell, _pin)| cell);
    let end = ["_SB_", "_TRELLIS_", "_LUT4", "_CCU2", "_PFUMX", "_L6MUX", "_DP16KD", "$"]
        .iter()
        .filter_map(|m| s.find(m))
        .min()
        .unwrap_or(s.len());
    s[..end].to_string()
}

/// The last register-to-register critical path report (`posedge -> posedge`) in the log.
pub fn critical_path(log: &str) -> Option<CriticalPath> {
    let lines: Vec<&str> = log.lines().collect();
    let start = lines.iter().rposition(|l| l.contains("Critical path report for clock") && l.contains("(posedge -> posedge)"))?;
    let mut p = CriticalPath::default();
    for l in &lines[start + 1..] {
        let t = l.trim_start_matches("Info:").trim();
        if t.contains("ns logic") {
            // "18.0 ns logic, 29.0 ns routing" closes the report
            let mut n = t.split(|c: char| !(c.is_ascii_digit() || c == '.')).filter(|x| !x.is_empty());
            p.logic_ns = n.next()?.parse().ok()?;
            p.routing_ns = n.next()?.parse().ok()?;
            break;
        }
        // nextpnr-ice40 0.4: "0.5 0.5 Source cell.pin" … "0.4 3.8 Setup cell.pin";
        // nextpnr 0.11 adds a type column: "clk-to-q 0.31 0.31 Source …" … "setup 0.00 5.69 Source …"
        let words: Vec<&str> = t.split_whitespace().collect();
        let Some(k) = words.iter().position(|w| *w == "Source" || *w == "Setup") else { continue };
        let Some(cell) = words.get(k + 1) else { continue };
        if words[k] == "Setup" || words[0] == "setup" {
            p.to = cell_name(cell);
        } else {
            if p.cells == 0 {
                p.from = cell_name(cell);
            }
            p.cells += 1;
        }
    }
    (p.cells > 0).then_some(p)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_nextpnr_figures() {
        let log = "Info: Device utilisation:\nInfo: \t         ICESTORM_LC:  1234/ 7680    16%\nInfo: \t        ICESTORM_RAM:     2/   32     6%\n\
                   Info: Max frequency for clock 'clock$SB_IO_IN_$glb_clk': 55.10 MHz (PASS at 12.00 MHz)\n\
                   Info: Critical path report for clock 'clock$SB_IO_IN_$glb_clk' (posedge -> posedge):\n\
                   Info: curr total\n\
                   Info:  0.5  0.5  Source dut.next.q_SB_DFF_Q_29_D_SB_LUT4_O_LC.O\n\
                   Info:  1.9  2.4    Net dut.st_next[2] budget -1.734000 ns (2,2) -> (11,3)\n\
                   Info:                Sink dut.cnt.q_SB_DFF_Q_3_D_SB_LUT4_O_LC.I3\n\
                   Info:                Defined in:\n\
                   Info:                  top.v:54.13-82.6\n\
                   Info:  0.3  2.8  Source dut.cnt.q_SB_DFF_Q_3_D_SB_LUT4_O_LC.O\n\
                   Info:  0.6  3.4    Net $nextpnr_ICESTORM_LC_4$I3 budget 0.560000 ns (6,6) -> (6,7)\n\
                   Info:                Sink $nextpnr_ICESTORM_LC_4.I3\n\
                   Info:  0.4  3.8  Setup dut.ms.q_SB_DFF_Q_8_D_SB_LUT4_O_LC.I2\n\
                   Info: 1.2 ns logic, 2.6 ns routing\n\n\
                   Info: Critical path report for cross-domain path 'posedge clock' -> '<async>':\n\
                   Warning: Max frequency for clock 'clock$SB_IO_IN_$glb_clk': 61.87 MHz (FAIL at 100.00 MHz)\n";
        assert_eq!(utilisation(log, "ICESTORM_LC"), (1234, 7680));
        assert_eq!(utilisation(log, "ICESTORM_RAM"), (2, 32));
        assert_eq!(utilisation(log, "ICESTORM_PLL"), (0, 0));
        assert_eq!(fmax(log), Some(61.87));
        let p = critical_path(log).unwrap();
        assert_eq!(p, CriticalPath { from: "dut.next.q".into(), to: "dut.ms.q".into(), cells: 2, logic_ns: 1.2, routing_ns: 2.6 });
    }

    #[test]
    fn reads_a_nextpnr_ecp5_0_11_path() {
        let log = "Info: \t        TRELLIS_COMB:     995/  43848     2%\n\
                   Info: Critical path report for clock '$glbnet$clock$TRELLIS_IO_IN' (posedge -> posedge):\n\
                   Info:       type curr  total name\n\
                   Info:   clk-to-q  0.31  0.31 Source stim_TRELLIS_FF_Q_9.Q\n\
                   Info:    routing  0.59  0.90 Net stim[104] (70,8) -> (70,9)\n\
                   Info:                          Sink u_dut.rate.dff.q_LUT4_B_2_Z.B\n\
                   Info:      logic  0.14  1.04 Source u_dut.rate.dff.q_LUT4_B_2_Z.F\n\
                   Info:    routing  0.51  1.55 Net x (74,6) -> (74,5)\n\
                   Info:                          Sink fold_TRELLIS_FF_Q_12.M\n\
                   Info:      setup  0.00  1.55 Source fold_TRELLIS_FF_Q_12.M\n\
                   Info: 0.45 ns logic, 1.10 ns routing\n";
        assert_eq!(utilisation(log, "TRELLIS_COMB"), (995, 43848));
        let p = critical_path(log).unwrap();
        assert_eq!(p, CriticalPath { from: "stim".into(), to: "fold".into(), cells: 2, logic_ns: 0.45, routing_ns: 1.10 });
    }
}
