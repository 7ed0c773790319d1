//! How old a price is. The core has no clock: the caller passes today's
//! date (the CLI its system date, the page the browser's).

use serde::Serialize;

/// Months after which a price is flagged stale.
pub const STALE_MONTHS: i32 = 6;

/// A price's age on the caller's date.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "age", rename_all = "snake_case")]
pub enum Age {
    /// Whole months between the price's date and today (a month-only or
    /// year-only date counts from its first day: the oldest it can be).
    Dated { months: i32, stale: bool },
    /// No date, or none that reads as YYYY, YYYY-MM or YYYY-MM-DD.
    Undated,
}

/// (year, month, day) of "YYYY", "YYYY-MM" or "YYYY-MM-DD".
pub fn parse_date(text: &str) -> Option<(i32, i32, i32)> {
    let mut parts = text.trim().split('-');
    let year: i32 = parts.next()?.parse().ok()?;
    let month: i32 = parts.next().map_or(Some(1), |m| m.parse().ok())?;
    let day: i32 = parts.next().map_or(Some(1), |d| d.parse().ok())?;
    let valid = (1900..=9999).contains(&year) && (1..=12).contains(&month) && (1..=31).contains(&day);
    (valid && parts.next().is_none()).then_some((year, month, day))
}

/// The age of a price dated `date` on `today` (both YYYY[-MM[-DD]]).
pub fn age(date: &str, today: &str) -> Age {
    let (Some((y0, m0, d0)), Some((y1, m1, d1))) = (parse_date(date), parse_date(today)) else {
        return Age::Undated;
    };
    let months = (y1 - y0) * 12 + (m1 - m0) - i32::from(d1 < d0);
    Age::Dated { months, stale: months >= STALE_MONTHS }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn six_months_is_stale() {
        assert_eq!(age("2026-06-04", "2026-12-04"), Age::Dated { months: 6, stale: true });
        assert_eq!(age("2026-06-05", "2026-12-04"), Age::Dated { months: 5, stale: false });
        assert_eq!(age("2026-08", "2026-12-04"), Age::Dated { months: 4, stale: false });
        assert_eq!(age("2021-06-15", "2026-12-04"), Age::Dated { months: 65, stale: true });
        assert_eq!(age("2026", "2026-12-04"), Age::Dated { months: 11, stale: true });
    }

    #[test]
    fn no_date_is_undated() {
        for date in ["undated", "", "seed 002", "2026-13", "2026-01-01-01"] {
            assert_eq!(age(date, "2026-12-04"), Age::Undated, "{date}");
        }
        assert_eq!(age("2026-01", "today"), Age::Undated);
    }
}
