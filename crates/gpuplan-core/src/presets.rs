//! Model presets: published architectures, each with its source.

use crate::model::Arch;

/// A published model.
#[derive(Clone, Debug)]
pub struct Preset {
    pub id: &'static str,
    pub name: &'static str,
    pub source: &'static str,
    arch: Arch,
}

impl Preset {
    pub fn arch(&self) -> Arch {
        self.arch.clone()
    }
}

/// The preset with this id.
pub fn find(id: &str) -> Option<Preset> {
    all().into_iter().find(|p| p.id == id)
}

pub fn all() -> Vec<Preset> {
    vec![Preset {
        id: "llama-3.1-8b",
        name: "Llama 3.1 8B",
        source: "meta-llama/Llama-3.1-8B config.json",
        arch: Arch { params: Some(8_030_261_248.0), ..Arch::default() },
    }]
}
