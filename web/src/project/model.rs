//! The project as the page prices, shares and keeps it: the stored
//! workloads with the active one's plan as the inputs hold it.

use gpuplan_core::plan::Plan;
use gpuplan_core::project::{Project, Workload};

/// The project as the page prices and shares it: the active workload's
/// plan as the inputs hold it. A one-workload project without lines bills
/// in its plan's currency, so that its link stays the plan's version 1 link.
pub fn with_active(project: &Project, active: usize, plan: &Plan) -> Project {
    let mut p = project.clone();
    if let Some(w) = p.workloads.get_mut(active) {
        write_back(w, plan);
    }
    if let ([only], true) = (p.workloads.as_slice(), p.lines.is_empty()) {
        (p.currency, p.cny_per_usd) = (only.plan.cost.currency, only.plan.cost.cny_per_usd);
    }
    p
}

/// Writes the inputs' plan into its workload. A workload a link gave no
/// model keeps that refusal until a model is chosen in the inputs.
fn write_back(w: &mut Workload, plan: &Plan) {
    if w.plan.model == plan.model {
        w.plan = plan.clone();
    } else {
        *w = renewed(w, plan.clone());
    }
}

/// `w` with `plan`, its model taken as chosen.
pub fn renewed(w: &Workload, plan: Plan) -> Workload {
    let mut new = Workload::new(w.name.clone(), plan);
    new.start_month = w.start_month;
    new.reuse = w.reuse.clone();
    new
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_single_plan_keeps_its_own_currency_and_link() {
        let mut plan = Plan::default();
        let p = Project::single(plan.clone());
        plan.cost.currency = gpuplan_core::money::Currency::Cny;
        let now = with_active(&p, 0, &plan);
        assert_eq!(now.currency, plan.cost.currency);
        let q = gpuplan_core::share::encode_project(&now, None, None);
        assert_eq!(q, gpuplan_core::share::encode(&plan, None, None));
    }
}
