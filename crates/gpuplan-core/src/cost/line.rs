//! Bill lines: one amount each, with what it is for, whether it is a
//! committed or a usage fee, when it is paid, and its derivation.

use serde::Serialize;

use crate::derivation::why;
use crate::error::{FieldError, Problem};
use crate::lang::Lang;
use crate::money::{num, Currency, Money};
use crate::text::{self, Key};

/// The five parts of TOTAL = compute + storage + IP + network + other.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Category {
    Compute,
    Storage,
    Ip,
    Network,
    Other,
}

impl Category {
    pub const ALL: [Category; 5] =
        [Category::Compute, Category::Storage, Category::Ip, Category::Network, Category::Other];

    pub fn label(self, lang: Lang) -> &'static str {
        let key = match self {
            Category::Compute => Key::CostCompute,
            Category::Storage => Key::CostStorage,
            Category::Ip => Key::CostIp,
            Category::Network => Key::CostNetwork,
            Category::Other => Key::CostOther,
        };
        text::get(key, lang)
    }
}

/// Committed fees are owed whatever the usage; usage fees follow it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Fee {
    Committed,
    Usage,
}

/// What a line charges for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum LineKind {
    OnDemand,
    Spot,
    SpUpfront,
    SpCommit,
    SpOver,
    RiUpfront,
    RiHourly,
    Block,
    Monthly,
    Storage,
    Ip,
    Egress,
    /// A fixed-bandwidth port (traffic unmetered).
    Port,
    /// A line the user added; its name is in [`Line::name`].
    Item,
    Buffer,
    Contingency,
}

impl LineKind {
    pub fn category(self) -> Category {
        match self {
            LineKind::Storage => Category::Storage,
            LineKind::Ip => Category::Ip,
            LineKind::Egress | LineKind::Port => Category::Network,
            LineKind::Item | LineKind::Buffer | LineKind::Contingency => Category::Other,
            _ => Category::Compute,
        }
    }

    pub fn label(self, lang: Lang) -> &'static str {
        let key = match self {
            LineKind::OnDemand => Key::LineOnDemand,
            LineKind::Spot => Key::LineSpot,
            LineKind::SpUpfront => Key::LineSpUpfront,
            LineKind::SpCommit => Key::LineSpCommit,
            LineKind::SpOver => Key::LineSpOver,
            LineKind::RiUpfront => Key::LineRiUpfront,
            LineKind::RiHourly => Key::LineRiHourly,
            LineKind::Block => Key::LineBlock,
            LineKind::Monthly => Key::LineMonthly,
            LineKind::Storage => Key::LineStorage,
            LineKind::Ip => Key::LineIp,
            LineKind::Egress => Key::LineEgress,
            LineKind::Port => Key::LinePort,
            LineKind::Item => Key::LineItem,
            LineKind::Buffer => Key::LineBuffer,
            LineKind::Contingency => Key::LineContingency,
        };
        text::get(key, lang)
    }
}

/// When a line's amount is paid, for the cost-over-time series.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
#[serde(tag = "at", rename_all = "snake_case")]
pub enum Accrual {
    /// All at hour 0.
    Upfront,
    /// Evenly between two hours.
    Spread { from_h: f64, to_h: f64 },
    /// In equal parts at the start of each 730-hour month.
    Monthly { months: u32 },
    /// In step with the rest of the bill (the contingency).
    Proportional,
}

impl Accrual {
    /// Share of the amount paid by hour `t`, 0-1.
    pub fn share(self, t: f64) -> f64 {
        if t < 0.0 {
            return 0.0;
        }
        match self {
            Accrual::Upfront | Accrual::Proportional => 1.0,
            Accrual::Spread { from_h, to_h } if to_h > from_h => {
                ((t - from_h) / (to_h - from_h)).clamp(0.0, 1.0)
            }
            Accrual::Spread { from_h, .. } => f64::from(u8::from(t >= from_h)),
            Accrual::Monthly { months } => {
                let paid = (t / super::usage::HOURS_PER_MONTH).floor() + 1.0;
                (paid / f64::from(months.max(1))).clamp(0.0, 1.0)
            }
        }
    }

    /// Hours where the paid curve bends or jumps.
    pub fn knots(self) -> Vec<f64> {
        match self {
            Accrual::Upfront | Accrual::Proportional => vec![0.0],
            Accrual::Spread { from_h, to_h } => vec![from_h, to_h],
            Accrual::Monthly { months } => {
                (0..months.min(1200)).map(|m| f64::from(m) * super::usage::HOURS_PER_MONTH).collect()
            }
        }
    }

    /// Hour by which the whole amount is paid.
    pub fn end(self) -> f64 {
        match self {
            Accrual::Upfront | Accrual::Proportional => 0.0,
            Accrual::Spread { to_h, .. } => to_h,
            Accrual::Monthly { months } => {
                f64::from(months.saturating_sub(1)) * super::usage::HOURS_PER_MONTH
            }
        }
    }
}

/// A line before rounding: an amount in some currency and its formula.
#[derive(Clone, Debug, PartialEq)]
pub struct Draft {
    pub kind: LineKind,
    pub fee: Fee,
    pub native: f64,
    pub currency: Currency,
    pub formula: String,
    pub accrual: Accrual,
    pub name: String,
}

impl Draft {
    pub fn new(
        kind: LineKind,
        fee: Fee,
        native: f64,
        currency: Currency,
        formula: String,
        accrual: Accrual,
    ) -> Self {
        Self { kind, fee, native, currency, formula, accrual, name: String::new() }
    }

    /// Rounds to the cent in its own currency, then converts to `to`.
    pub fn finish(self, to: Currency, cny_per_usd: f64, path: &str) -> Result<Line, FieldError> {
        let too_large =
            || FieldError::new(path, Problem::OutOfRange { min: 0.0, max: crate::money::MAX_UNITS });
        let native = Money::round(self.native).ok_or_else(too_large)?;
        let factor = self.currency.factor(to, cny_per_usd);
        let amount = Money::round(native.units() * factor).ok_or_else(too_large)?;
        let mut derivation = why!("{} = {} {}", self.formula, native.text(), self.currency.code());
        if self.currency != to {
            // Written with the rate as the user set it (CNY per USD).
            let (op, rate) = if factor < 1.0 { ("÷", 1.0 / factor) } else { ("×", factor) };
            derivation.push_str(&why!(" {op} {} = {} {}", num(rate), amount.text(), to.code()));
        }
        Ok(Line {
            kind: self.kind,
            category: self.kind.category(),
            fee: self.fee,
            name: self.name,
            amount,
            native,
            native_currency: self.currency,
            derivation,
            accrual: self.accrual,
        })
    }
}

/// One line of a bill.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Line {
    pub kind: LineKind,
    pub category: Category,
    pub fee: Fee,
    /// The user's name for an added item; empty otherwise.
    pub name: String,
    /// In the bill's currency.
    pub amount: Money,
    /// In the currency the price was given in.
    pub native: Money,
    pub native_currency: Currency,
    /// The formula with its numbers.
    pub derivation: String,
    pub accrual: Accrual,
}

impl Line {
    pub fn label(&self, lang: Lang) -> String {
        if self.kind == LineKind::Item && !self.name.is_empty() {
            self.name.clone()
        } else {
            self.kind.label(lang).to_string()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finish_rounds_then_converts() {
        let d =
            Draft::new(LineKind::OnDemand, Fee::Usage, 10.005, Currency::Cny, "x".into(), Accrual::Upfront);
        let line = d.finish(Currency::Usd, 8.0, "p").unwrap_or_else(|e| panic!("{e:?}"));
        assert_eq!(line.native.cents(), 1001);
        assert_eq!(line.amount.cents(), 125); // 10.01 / 8 = 1.25125
        assert_eq!(line.derivation, "x = 10.01 CNY ÷ 8 = 1.25 USD");
        let huge = Draft::new(LineKind::Ip, Fee::Usage, 1.0e14, Currency::Usd, "x".into(), Accrual::Upfront);
        assert!(huge.finish(Currency::Usd, 7.0, "p").is_err());
    }

    #[test]
    fn accrual_shares() {
        assert_eq!(Accrual::Spread { from_h: 0.0, to_h: 100.0 }.share(25.0), 0.25);
        assert_eq!(Accrual::Monthly { months: 4 }.share(0.0), 0.25);
        assert_eq!(Accrual::Monthly { months: 4 }.share(731.0), 0.5);
        assert_eq!(Accrual::Monthly { months: 4 }.share(1.0e6), 1.0);
        assert_eq!(Accrual::Upfront.share(0.0), 1.0);
        assert_eq!(Accrual::Upfront.share(-1.0e-6), 0.0);
        assert_eq!(Accrual::Monthly { months: 3 }.knots(), [0.0, 730.0, 1460.0]);
    }
}
