//! Register maps, written once per block with [`regmap!`](macro@crate::regmap).
//!
//! One `regmap!` list in a block's `csr` module (the NIC's `reg`) gives:
//! * a constant per register, its address (`csr::K`, `reg::ENC_K`): the driver, the tests and the
//!   vectors write through it;
//! * `idx`, each register's position in the table (the NIC's RTL decode index);
//! * `fields`, every bit field by name, checked at compile time (`fields::FLAGS::drop_non_ect.set(1)`);
//! * `REGISTERS`, the table from which [`markdown_table`] writes the register table of the
//!   block's README ([`crate::block_docs`]).
//!
//! rust-hdl's `#[hdl_gen]` takes only literals as addresses, so each `rtl.rs` const-asserts
//! that the literals it decodes are the map's constants: changing an address without the RTL
//! does not compile.

/// How the host may access a register.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Access {
    /// Read-only status.
    Ro,
    /// Read/write configuration.
    Rw,
    /// Write-only configuration (reads return 0, or the block's outputs).
    Wo,
    /// Write-only command: the write is a one-clock pulse.
    Cmd,
}

impl Access {
    pub fn as_str(self) -> &'static str {
        match self {
            Access::Ro => "RO",
            Access::Rw => "RW",
            Access::Wo => "WO",
            Access::Cmd => "CMD",
        }
    }
    pub fn readable(self) -> bool {
        matches!(self, Access::Ro | Access::Rw)
    }
}

/// A bit field of a register.
#[derive(Clone, Copy, Debug)]
pub struct Field {
    pub name: &'static str,
    pub lsb: u32,
    pub width: u32,
    pub doc: &'static str,
}

impl Field {
    const fn mask(&self) -> u32 {
        if self.width >= 32 {
            u32::MAX
        } else {
            (1u32 << self.width) - 1
        }
    }
    /// The field's value in register value `v`.
    pub const fn get(&self, v: u32) -> u32 {
        (v >> self.lsb) & self.mask()
    }
    /// A register value with this field set to `x` (truncated to the field) and every other
    /// bit 0: a command write.
    pub const fn set(&self, x: u32) -> u32 {
        (x & self.mask()) << self.lsb
    }
}

/// One register (or `count` consecutive ones, for an array).
#[derive(Clone, Copy, Debug)]
pub struct Register {
    pub name: &'static str,
    /// Its address in the block's address unit (bytes for the NIC's BAR, registers for the
    /// switch blocks' write ports).
    pub offset: u32,
    pub count: u32,
    pub access: Access,
    pub doc: &'static str,
    pub fields: &'static [Field],
}

impl Register {
    pub fn field(&self, name: &str) -> Option<&'static Field> {
        self.fields.iter().find(|f| f.name == name)
    }
    /// `name=value` for every field, or the hex value when the register has none.
    pub fn decode(&self, v: u32) -> String {
        if self.fields.is_empty() {
            return format!("{v:#010x} ({v})");
        }
        let parts: Vec<String> = self.fields.iter().map(|f| format!("{}={}", f.name, f.get(v))).collect();
        format!("{v:#010x} [{}]", parts.join(" "))
    }
}

/// The position of register `name` in `regs` (a compile error when there is none).
pub const fn position(regs: &[Register], name: &str) -> usize {
    let mut i = 0;
    while i < regs.len() {
        let (a, b) = (regs[i].name.as_bytes(), name.as_bytes());
        if a.len() == b.len() {
            let mut j = 0;
            while j < a.len() && a[j] == b[j] {
                j += 1;
            }
            if j == a.len() {
                return i;
            }
        }
        i += 1;
    }
    panic!("no such register")
}

/// Registers that overlap (spans `offset .. offset + count·stride`), as `(a, b)` names.
pub fn overlaps(regs: &[Register], stride: u32) -> Vec<(&'static str, &'static str)> {
    let mut spans: Vec<(u32, u32, &str)> = regs.iter().map(|r| (r.offset, r.offset + stride * r.count, r.name)).collect();
    spans.sort();
    spans.windows(2).filter(|p| p[0].1 > p[1].0).map(|p| (p[0].2, p[1].2)).collect()
}

/// The register table in Markdown, by address: `stride` address units per register, addresses
/// printed with `digits` characters (`0x` included).
pub fn markdown_table(regs: &[Register], stride: u32, digits: usize) -> String {
    let mut s = String::from("| address | name | access | description |\n|---|---|---|---|\n");
    let mut by_offset: Vec<&Register> = regs.iter().collect();
    by_offset.sort_by_key(|r| r.offset);
    for r in by_offset {
        let off = if r.count > 1 {
            format!("`{:#0digits$x}`–`{:#0digits$x}`", r.offset, r.offset + stride * (r.count - 1))
        } else {
            format!("`{:#0digits$x}`", r.offset)
        };
        let mut d = r.doc.to_string();
        for f in r.fields {
            let bits = if f.width == 1 { format!("{}", f.lsb) } else { format!("{}:{}", f.lsb + f.width - 1, f.lsb) };
            d.push_str(&format!("<br>`[{bits}]` **{}**: {}", f.name, f.doc));
        }
        s.push_str(&format!("| {off} | `{}` | {} | {d} |\n", r.name, r.access.as_str()));
    }
    s
}

/// Declares a register map in the current module (see the [module docs](mod@crate::regmap)):
///
/// ```ignore
/// pub mod csr {
///     crate::regmap! { u8;
///         UNIT @ 0 : Wo, "0 packets, 1 bytes.";
///         FLAGS @ 3 : Wo, "Flags." { drop_non_ect[0 +: 1] "drop Not-ECT above K" };
///         CNT_BASE @ 16 x 8 : Wo, "Counter presets.";
///     }
/// }
/// ```
#[macro_export]
macro_rules! regmap {
    ($t:ty; $( $name:ident @ $off:literal $(x $count:literal)? : $acc:ident, $doc:literal
        $( { $( $fname:ident [$lsb:literal +: $w:literal] $fdoc:literal ),* $(,)? } )? ; )*) => {
        $(
            #[doc = $doc]
            pub const $name: $t = $off;
        )*
        /// Each register's position in [`REGISTERS`].
        pub mod idx {
            $( pub const $name: usize = $crate::regmap::position(super::REGISTERS, stringify!($name)); )*
        }
        /// Every register's fields by name, checked at compile time.
        #[allow(non_snake_case, non_upper_case_globals)]
        pub mod fields { $(
            #[doc = $doc]
            pub mod $name {
                #[allow(unused_imports)]
                use $crate::regmap::Field;
                $( $(
                    #[doc = $fdoc]
                    pub const $fname: Field = Field { name: stringify!($fname), lsb: $lsb, width: $w, doc: $fdoc };
                )* )?
            }
        )* }
        /// The register map: the one source of truth.
        pub const REGISTERS: &[$crate::regmap::Register] = &[ $( $crate::regmap::Register {
            name: stringify!($name),
            offset: $off,
            count: $crate::regmap!(@count $($count)?),
            access: $crate::regmap::Access::$acc,
            doc: $doc,
            fields: &[ $( $( $crate::regmap::Field { name: stringify!($fname), lsb: $lsb, width: $w, doc: $fdoc } ),* )? ],
        } ),* ];
    };
    (@count) => { 1 };
    (@count $c:literal) => { $c };
}

#[cfg(test)]
mod tests {
    use super::*;

    mod demo {
        crate::regmap! { u8;
            A @ 0 : Wo, "a";
            B @ 2 x 3 : Rw, "b" { lo[0 +: 4] "low", top[31 +: 1] "top" };
        }
    }

    #[test]
    fn the_macro_gives_constants_positions_fields_and_a_table() {
        assert_eq!((demo::A, demo::B), (0u8, 2u8));
        assert_eq!((demo::idx::A, demo::idx::B), (0, 1));
        assert_eq!(demo::fields::B::top.set(1), 1 << 31);
        assert_eq!(demo::fields::B::lo.get(0xFFFF_FFF5), 5);
        assert_eq!(demo::REGISTERS[1].decode(0x8000_0003), "0x80000003 [lo=3 top=1]");
        assert!(overlaps(demo::REGISTERS, 1).is_empty());
        assert_eq!(overlaps(demo::REGISTERS, 3), vec![("A", "B")]);
        let t = markdown_table(demo::REGISTERS, 1, 4);
        assert!(t.contains("| `0x02`–`0x04` | `B` | RW | b<br>`[3:0]` **lo**: low<br>`[31]` **top**: top |"), "{t}");
    }
}
