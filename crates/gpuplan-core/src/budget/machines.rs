//! The machines a project orders, each once: a workload's selection, where
//! a workload that carries on an earlier one's machines orders them for
//! both, and workloads that order the same configuration share its entry.
//! Each machine's checklist is the one of the workload whose selection it
//! is, so that the checklist, the acceptance commands and the bill name
//! the same GPU × count × layout × option.

use serde::Serialize;

use crate::report::Report;

/// One machine order of a project.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Machine {
    /// The index of the workload whose selection (and so checklist) this is.
    pub workload: usize,
    /// Every workload that runs on it, by name.
    pub workloads: Vec<String>,
    pub gpu: String,
    pub gpu_name: String,
    pub gpus: u32,
    /// The layout in words ("tp 1 · pp 1, 3 replicas").
    pub layout: String,
    /// The purchase option's id, as the bill's (`WorkloadBudget::option`).
    pub option: Option<String>,
    pub instances: u32,
    /// What to order, in words.
    pub selection: String,
}

/// The project's machines in workload order, each configuration once.
/// `names[i]`, `reuses[i]`: workload i's name and the index of the workload it carries on.
pub(super) fn machines(
    reports: &[Report],
    names: &[String],
    reuses: &[Option<usize>],
    lang: crate::lang::Lang,
) -> Vec<Machine> {
    let mut out: Vec<Machine> = Vec::new();
    let name = |i: usize| names.get(i).cloned().unwrap_or_default();
    for (i, r) in reports.iter().enumerate() {
        let Some(s) = r.selection.as_ref() else { continue };
        // A workload carried on by a later one is ordered there.
        if reuses.contains(&Some(i)) {
            continue;
        }
        let option = s.option.as_ref();
        let mut users: Vec<String> = reuses.get(i).copied().flatten().map(name).into_iter().collect();
        users.push(name(i));
        let (id, layout) = (option.map(|o| o.id.clone()), s.layout(lang));
        let same = out
            .iter_mut()
            .find(|m| m.gpu == s.gpu && m.gpus == s.gpus && m.layout == layout && m.option == id);
        match same {
            Some(m) => m.workloads.extend(users),
            None => out.push(Machine {
                workload: i,
                workloads: users,
                gpu: s.gpu.clone(),
                gpu_name: s.gpu_name.clone(),
                gpus: s.gpus,
                layout,
                option: id,
                instances: option.map_or(0, |o| o.instances),
                selection: s.describe(lang),
            }),
        }
    }
    out
}
