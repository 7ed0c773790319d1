//! CUDA toolkit → minimum Linux driver, from NVIDIA's CUDA release notes
//! (table in shared/reference/checklist.md).

use super::facts::CudaVersion;

/// Minimum Linux driver of a toolkit release ("GA" = general availability).
struct Row {
    major: u32,
    minor: u32,
    driver: &'static str,
}

const GA: &[Row] = &[
    Row { major: 11, minor: 8, driver: "520.61.05" },
    Row { major: 12, minor: 0, driver: "525.60.13" },
    Row { major: 12, minor: 4, driver: "550.54.14" },
    Row { major: 12, minor: 8, driver: "570.26" },
    Row { major: 13, minor: 0, driver: "580.65.06" },
    Row { major: 13, minor: 1, driver: "590.44.01" },
    Row { major: 13, minor: 2, driver: "595.45.04" },
];

/// Oldest driver branch that runs any toolkit of a major release
/// (minor-version compatibility, with its documented limits).
fn major_floor(major: u32) -> Option<&'static str> {
    match major {
        11 => Some("450"),
        12 => Some("525"),
        13 => Some("580"),
        _ => None,
    }
}

/// What the driver must be for a wanted toolkit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Floor {
    /// The release's own GA driver is in the table.
    Exact(&'static str),
    /// The release is not in the table: its floor is at least this (the
    /// newest listed release of the same major that is older), and maybe higher.
    AtLeast {
        driver: &'static str,
        from: CudaVersion,
    },
    /// Only the major release's branch is known.
    Major(&'static str),
    Unknown,
}

pub(crate) fn driver_floor(v: CudaVersion) -> Floor {
    if let Some(row) = GA.iter().find(|r| r.major == v.major && r.minor == v.minor) {
        return Floor::Exact(row.driver);
    }
    let older = GA.iter().filter(|r| r.major == v.major && r.minor < v.minor).max_by_key(|r| r.minor);
    match (older, major_floor(v.major)) {
        (Some(r), _) => {
            Floor::AtLeast { driver: r.driver, from: CudaVersion { major: r.major, minor: r.minor } }
        }
        (None, Some(d)) => Floor::Major(d),
        (None, None) => Floor::Unknown,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn v(major: u32, minor: u32) -> CudaVersion {
        CudaVersion { major, minor }
    }

    #[test]
    fn floors_follow_the_release_notes_table() {
        assert_eq!(driver_floor(v(12, 8)), Floor::Exact("570.26"));
        assert_eq!(driver_floor(v(13, 0)), Floor::Exact("580.65.06"));
        assert_eq!(driver_floor(v(12, 6)), Floor::AtLeast { driver: "550.54.14", from: v(12, 4) });
        assert_eq!(driver_floor(v(11, 4)), Floor::Major("450"));
        assert_eq!(driver_floor(v(10, 2)), Floor::Unknown);
    }

    #[test]
    fn versions_parse_with_or_without_patch() {
        assert_eq!(CudaVersion::parse("12.8"), Some(v(12, 8)));
        assert_eq!(CudaVersion::parse(" 12.8.1 "), Some(v(12, 8)));
        assert_eq!(CudaVersion::parse("13"), Some(v(13, 0)));
        assert_eq!(CudaVersion::parse("12.x"), None);
        assert_eq!(CudaVersion::parse("1.2.3.4"), None);
        assert_eq!(CudaVersion::parse(""), None);
    }
}
