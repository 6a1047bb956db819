//! The generated documents before layout ([`GenSet`]) and one generated file
//! ([`GenFile`]); the documents themselves, before any scenario or fault: each core's
//! module in the config's shape, and the netlist a files layout writes.

use serde_json::{json, Map, Value};

use super::config::{GenConfig, Shape};
use super::{module, real, short};
use crate::read::input::SourceFile;

/// One generated file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GenFile {
    /// Relative path.
    pub path: String,
    /// Content.
    pub bytes: Vec<u8>,
}

impl GenFile {
    /// As a pipeline input.
    pub fn source(&self) -> SourceFile {
        SourceFile {
            path: self.path.clone(),
            content: crate::read::input::Content::Bytes(self.bytes.clone()),
            role: crate::read::input::Role::Auto,
        }
    }
}

/// The generated documents before layout.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct GenSet {
    /// One module per core.
    pub modules: Vec<Value>,
    /// The netlist, if any.
    pub netlist: Option<Value>,
    /// Bundle options.
    pub options: Map<String, Value>,
}

/// The seeds' documents of a config (one module per core), before any scenario or
/// fault; a grid's are `gen::grid`'s.
pub(super) fn documents(config: &GenConfig) -> GenSet {
    let mut rng = module::Rng::new(config.seed);
    let cores = config.cores.max(1);
    let modules: Vec<Value> = (0..cores).map(|c| core_module(config, c, &mut rng)).collect();
    GenSet { modules, netlist: netlist(config, cores), options: Map::new() }
}

/// One core's module, in the config's shape.
pub(super) fn core_module(config: &GenConfig, core: u64, rng: &mut module::Rng) -> Value {
    let mut module = module::core_module(config, core, rng);
    match config.shape {
        Shape::Real => real::realize(&mut module, core),
        Shape::Short => short::shorten(&mut module, core),
        Shape::Gen => {}
    }
    module
}

/// The netlist a files layout writes (its `lnc` from the netlist or the options).
pub(super) fn netlist(config: &GenConfig, cores: u64) -> Option<Value> {
    config.netlist.then(|| json!({"lnc": cores, "name": "nc00", "outputs": ["output"]}))
}

/// Pretty JSON with a final newline.
pub fn pretty(value: &Value) -> String {
    crate::output::json::to_pretty_string(value)
}
