//! Bills placed on the project's timeline: each amount by line (GPUs,
//! storage, IP, egress, own items, contingency), paid as its bill pays it,
//! summed into 730-hour months.

use serde::Serialize;

use crate::cost::{Accrual, Line, LineKind, HOURS_PER_MONTH};
use crate::money::Money;

/// The lines of a budget: what each month's bar and the data table split into.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize)]
pub struct ByLine {
    /// Compute and the debugging time on the GPUs.
    pub gpus: Money,
    pub storage: Money,
    pub ip: Money,
    /// Metered egress or a fixed-bandwidth port.
    pub egress: Money,
    /// The user's own items: a plan's and the project's.
    pub items: Money,
    /// The plans' contingency percentage.
    pub contingency: Money,
}

/// One line of [`ByLine`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Slot {
    Gpus,
    Storage,
    Ip,
    Egress,
    Items,
    Contingency,
}

impl Slot {
    pub(crate) const ALL: [Slot; 6] =
        [Slot::Gpus, Slot::Storage, Slot::Ip, Slot::Egress, Slot::Items, Slot::Contingency];

    fn of(kind: LineKind) -> Slot {
        match kind {
            LineKind::Storage => Slot::Storage,
            LineKind::Ip => Slot::Ip,
            LineKind::Egress | LineKind::Port => Slot::Egress,
            LineKind::Item => Slot::Items,
            LineKind::Contingency => Slot::Contingency,
            _ => Slot::Gpus,
        }
    }

    /// Paid per instance for as long as it is held: the part of a bill
    /// that a later workload carries on with the machines.
    fn machine(self) -> bool {
        matches!(self, Slot::Gpus | Slot::Storage | Slot::Ip)
    }
}

impl ByLine {
    pub(crate) fn get(&self, slot: Slot) -> Money {
        match slot {
            Slot::Gpus => self.gpus,
            Slot::Storage => self.storage,
            Slot::Ip => self.ip,
            Slot::Egress => self.egress,
            Slot::Items => self.items,
            Slot::Contingency => self.contingency,
        }
    }

    fn slot_mut(&mut self, slot: Slot) -> &mut Money {
        match slot {
            Slot::Gpus => &mut self.gpus,
            Slot::Storage => &mut self.storage,
            Slot::Ip => &mut self.ip,
            Slot::Egress => &mut self.egress,
            Slot::Items => &mut self.items,
            Slot::Contingency => &mut self.contingency,
        }
    }

    pub fn total(&self) -> Money {
        Slot::ALL.into_iter().fold(Money::ZERO, |acc, s| acc.plus(self.get(s)))
    }

    pub(crate) fn plus(mut self, other: &ByLine) -> ByLine {
        for s in Slot::ALL {
            let sum = self.get(s).plus(other.get(s));
            *self.slot_mut(s) = sum;
        }
        self
    }

    pub(crate) fn with(mut self, slot: Slot, amount: Money) -> ByLine {
        *self.slot_mut(slot) = amount;
        self
    }
}

/// Which lines of a bill a piece takes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Take {
    All,
    /// GPUs, storage and IP: what the instances cost while held.
    Machines,
    /// Egress and the plan's own items.
    Others,
}

/// A part of one bill on the project's timeline: some of its lines, for a
/// share of its instances, from an hour of the project, in the project's currency.
pub(crate) struct Piece<'a> {
    pub lines: &'a [Line],
    pub take: Take,
    /// Share of the bill's instances (1: all of them).
    pub weight: f64,
    pub offset_h: f64,
    /// Into the project's currency.
    pub factor: f64,
}

impl Piece<'_> {
    fn taken(&self, l: &Line) -> bool {
        let slot = Slot::of(l.kind);
        slot != Slot::Contingency
            && match self.take {
                Take::All => true,
                Take::Machines => slot.machine(),
                Take::Others => !slot.machine(),
            }
    }

    /// Paid by hour `t` of the project on one line, in the project's currency.
    /// The contingency follows the taken lines, in their share of the bill.
    pub fn paid(&self, slot: Slot, t: f64) -> f64 {
        let at = t - self.offset_h;
        let scale = self.weight * self.factor;
        if slot != Slot::Contingency {
            let own = |l: &&Line| Slot::of(l.kind) == slot && self.taken(l);
            return self
                .lines
                .iter()
                .filter(own)
                .map(|l| l.amount.units() * l.accrual.share(at))
                .sum::<f64>()
                * scale;
        }
        let base = |l: &&Line| l.accrual != Accrual::Proportional;
        let bill: f64 = self.lines.iter().filter(base).map(|l| l.amount.units()).sum();
        let taken: Vec<&Line> = self.lines.iter().filter(|l| self.taken(l)).collect();
        let taken_total: f64 = taken.iter().map(|l| l.amount.units()).sum();
        let so_far: f64 = taken.iter().map(|l| l.amount.units() * l.accrual.share(at)).sum();
        let contingency: f64 =
            self.lines.iter().filter(|l| l.kind == LineKind::Contingency).map(|l| l.amount.units()).sum();
        let (part, progress) = match (bill > 0.0, taken_total > 0.0) {
            (true, true) => (taken_total / bill, so_far / taken_total),
            (true, false) => (0.0, 0.0),
            (false, _) => (1.0, f64::from(u8::from(at >= 0.0))),
        };
        contingency * part * progress * scale
    }

    /// Everything the piece pays on one line.
    pub fn total(&self, slot: Slot) -> f64 {
        self.paid(slot, f64::INFINITY)
    }
}

/// How a workload takes a piece: whole, or the part of it paid first up
/// to a share of its total (the workload that used the machines first),
/// or the rest after that share (the workload that carries them on).
pub(crate) enum Term<'a> {
    Whole(Piece<'a>),
    First(Piece<'a>, f64),
    Rest(Piece<'a>, f64),
}

impl Term<'_> {
    fn paid(&self, slot: Slot, t: f64) -> f64 {
        match self {
            Term::Whole(p) => p.paid(slot, t),
            Term::First(p, share) => p.paid(slot, t).min(p.total(slot) * share),
            Term::Rest(p, share) => {
                let paid = p.paid(slot, t);
                paid - paid.min(p.total(slot) * share)
            }
        }
    }
}

/// A workload's terms by month and by line; the months of each line add up
/// to its total to the cent.
pub(crate) fn by_month(terms: &[Term], months: usize) -> Vec<ByLine> {
    let mut out = vec![ByLine::default(); months];
    for slot in Slot::ALL {
        let paid = |t: f64| terms.iter().map(|term| term.paid(slot, t)).sum::<f64>();
        for (cell, due) in out.iter_mut().zip(cumulative_to_months(months, paid(f64::INFINITY), paid)) {
            *cell = cell.with(slot, due);
        }
    }
    out
}

/// Amounts due in each month from a cumulative curve; the last month takes
/// what is left so that the months add up to the total exactly.
pub(crate) fn cumulative_to_months(months: usize, total: f64, paid: impl Fn(f64) -> f64) -> Vec<Money> {
    let cents = |x: f64| Money::round(x).unwrap_or(Money::ZERO);
    let total = cents(total);
    let mut out = Vec::with_capacity(months);
    let mut so_far = Money::ZERO;
    for m in 0..months {
        let due = if m + 1 == months {
            total
        } else {
            cents(paid((m as f64 + 1.0) * HOURS_PER_MONTH - 1.0e-6)).min(total)
        };
        out.push(due.minus(so_far));
        so_far = due;
    }
    out
}

/// Adds months of amounts by line.
pub(crate) fn sum(months: &[ByLine]) -> ByLine {
    months.iter().fold(ByLine::default(), |acc, m| acc.plus(m))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cost::{Category, Fee};
    use crate::money::Currency;

    fn line(kind: LineKind, units: f64, accrual: Accrual) -> Line {
        let amount = Money::round(units).unwrap_or(Money::ZERO);
        Line {
            kind,
            category: Category::Compute,
            fee: Fee::Usage,
            name: String::new(),
            amount,
            native: amount,
            native_currency: Currency::Cny,
            derivation: String::new(),
            accrual,
        }
    }

    /// Three monthly cards for 13 months, storage over the same time, egress
    /// and a 20 % contingency on the whole.
    fn bill() -> Vec<Line> {
        vec![
            line(LineKind::Monthly, 3.0 * 2200.0 * 13.0, Accrual::Monthly { months: 13 }),
            line(LineKind::Storage, 130.0, Accrual::Spread { from_h: 0.0, to_h: 13.0 * 730.0 }),
            line(LineKind::Egress, 65.0, Accrual::Spread { from_h: 0.0, to_h: 13.0 * 730.0 }),
            line(LineKind::Contingency, 0.2 * (85_800.0 + 195.0), Accrual::Proportional),
        ]
    }

    fn piece(lines: &[Line], take: Take, weight: f64) -> Piece<'_> {
        Piece { lines, take, weight, offset_h: 0.0, factor: 1.0 }
    }

    #[test]
    fn the_first_user_and_the_rest_share_a_piece() {
        let lines = bill();
        let whole = by_month(&[Term::Whole(piece(&lines, Take::Machines, 1.0 / 3.0))], 13);
        let share = 180.76 / (13.0 * 730.0);
        let first = by_month(&[Term::First(piece(&lines, Take::Machines, 1.0 / 3.0), share)], 13);
        let rest = by_month(&[Term::Rest(piece(&lines, Take::Machines, 1.0 / 3.0), share)], 13);
        // Each part is rounded to the cent on its own: at most a cent apart per line.
        for ((w, f), r) in whole.iter().zip(&first).zip(&rest) {
            for slot in Slot::ALL {
                let gap = f.plus(r).get(slot).minus(w.get(slot)).cents();
                assert!(gap.abs() <= 1, "{slot:?}: {gap}");
            }
        }
        // One card's 180.76 h at 2,200 a month, and its contingency in step.
        let f = sum(&first);
        assert_eq!(f.gpus.text(), "544.76");
        let ratio = f.contingency.units() / (f.gpus.units() + f.storage.units());
        assert!((ratio - 0.2).abs() < 1.0e-3, "{ratio}");
        assert_eq!(first.get(1).map(ByLine::total), Some(Money::ZERO), "paid with the first month's payment");
        assert_eq!(sum(&whole).egress, Money::ZERO, "egress is not the machines'");
    }

    #[test]
    fn machines_and_others_make_the_whole_bill() {
        let lines = bill();
        let all = sum(&by_month(&[Term::Whole(piece(&lines, Take::All, 1.0))], 13));
        let parts = by_month(
            &[Term::Whole(piece(&lines, Take::Machines, 1.0)), Term::Whole(piece(&lines, Take::Others, 1.0))],
            13,
        );
        assert_eq!(sum(&parts), all);
        let total: Money = lines.iter().fold(Money::ZERO, |a, l| a.plus(l.amount));
        assert_eq!(all.total(), total);
        assert_eq!((all.storage.text(), all.egress.text()), ("130.00".to_string(), "65.00".to_string()));
    }
}
