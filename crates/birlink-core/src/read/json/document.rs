//! What both readers of a document build, and how they finish it: a [`Document`] (a
//! module, a bundle, anything else), the kinds of streamed containers ([`Kind`]) and
//! what each became ([`Streamed`], [`Lowered`], [`One`]), a module's keys as they are
//! read ([`ModuleKeys`]), and the two steps both end with: [`lower_element`] for a
//! function, block, queue or queue instance whose keys are read, [`finish_root`] for the
//! root. The direct reader (`json::direct`) and the serde one (`json::stream`) are
//! siblings that build this vocabulary; neither imports the other.

use serde_json::Value;

use crate::diag::codes::Code;
use crate::diag::describe::describe_value;
use crate::diag::Diagnostic;
use crate::model::arena::Handle;
use crate::model::ir::{Block, Fields, FileId, Function, Inst, Module, Queue, QueueInstance};
use crate::model::pass::Pass;
use crate::model::uses::Uses;
use crate::read::json::lower::Reader;

/// A document of a link set, read.
#[derive(Debug)]
pub enum Document {
    /// A per-core module and the names its instructions use.
    Module(Box<Module>, Uses),
    /// A bundle: its modules (with their pointers), and its other keys.
    Bundle {
        /// Each module with its uses.
        modules: Vec<(Module, Uses)>,
        /// The bundle's other keys (`options`, `netlist`, …).
        fields: Fields,
    },
    /// Anything else (a netlist, or not a BIR document at all), as parsed.
    Other(Value),
}

/// A document's root object, its keys read: a module (a `modules` key on it is just
/// data, written back as it came), a bundle, or anything else as its value. Both
/// readers (`json::direct`, `json::stream`) finish a root with it.
pub(super) fn finish_root(
    mut reader: Reader<'_>,
    keys: ModuleKeys,
    modules: Option<Vec<(Module, Uses)>>,
    bundle_diags: Vec<Diagnostic>,
) -> Document {
    let ModuleKeys { mut fields, functions, queues, .. } = keys;
    if functions.is_some() || fields.contains_key("functions") {
        if let Some(list) = modules {
            let values = list.iter().map(|(m, _)| crate::output::json::module_to_value(m)).collect();
            fields.insert("modules".to_owned(), Value::Array(values));
        }
        let module = reader.module(fields, "", functions, queues);
        let uses = reader.into_unresolved(&module);
        return Document::Module(Box::new(module), uses);
    }
    if let Some(modules) = modules {
        reader.report_all(bundle_diags);
        return Document::Bundle { modules, fields };
    }
    if fields.contains_key("modules") {
        reader.report_all(bundle_diags);
        return Document::Bundle { modules: Vec::new(), fields };
    }
    if queues.is_some() {
        // Not a module after all: give the queues back as data for the message.
        fields.insert("queues".to_owned(), Value::Array(Vec::new()));
    }
    Document::Other(Value::Object(fields))
}

/// A module's keys as they stream: its `functions` and `queues` lowered (a repeat of
/// either noted on the document), every other key kept. Both a module document and a
/// bundle's module read their keys through it.
#[derive(Default)]
pub(super) struct ModuleKeys {
    pub(super) fields: Fields,
    pub(super) functions: Option<Vec<Handle<Function>>>,
    pub(super) queues: Option<Vec<Handle<Queue>>>,
    /// Where what was said of the queues began, when they came before the functions (a
    /// producer's key order): the functions' diagnostics are moved before them, as a
    /// file with sorted keys says them (`Reader::say_earlier`).
    pub(super) queues_said: Option<usize>,
}

impl ModuleKeys {
    /// Marks the start of a streamed key's reading: the queues' when no functions were
    /// read yet.
    pub(super) fn reading(&mut self, key: &str, reader: &Reader<'_>) -> usize {
        let said = reader.said();
        if key == "queues" && self.functions.is_none() {
            self.queues_said = Some(said);
        }
        said
    }

    /// After a streamed key's reading begun at `said`: the functions' diagnostics said
    /// before the queues' read earlier.
    pub(super) fn read(&mut self, key: &str, said: usize, reader: &mut Reader<'_>) {
        if key != "functions" {
            return;
        }
        if let Some(queues) = self.queues_said.take() {
            reader.say_earlier(queues, said);
        }
    }
}

impl Reader<'_> {
    pub(super) fn report_all(&mut self, diagnostics: Vec<Diagnostic>) {
        for diagnostic in diagnostics {
            self.report(diagnostic);
        }
    }
}

/// Reports a bundle's module `index` that is not one.
pub(super) fn not_a_module(diags: &mut Vec<Diagnostic>, file: FileId, index: usize, value: &Value) {
    let message =
        format!("bundle module {index} is not a BIR module (it has no `functions`): {}", describe_value(value));
    diags.push(Diagnostic::new(Code::NotAModule, Pass::Read, message).at_pointer(file, format!("/modules/{index}")));
}

/// The kinds of streamed containers.
#[derive(Clone, Copy)]
pub(super) enum Kind {
    Functions,
    Queues,
    Blocks { depth: usize },
    Insts { depth: usize },
    Instances,
}

impl Kind {
    pub(super) fn key(self) -> &'static str {
        match self {
            Kind::Functions => "functions",
            Kind::Queues => "queues",
            Kind::Blocks { .. } | Kind::Instances => "blocks",
            Kind::Insts { .. } => "instructions",
        }
    }

    pub(super) fn element(self) -> &'static str {
        match self {
            Kind::Functions => "a function",
            Kind::Queues => "a queue",
            Kind::Blocks { .. } => "a block",
            Kind::Insts { .. } => "an instruction",
            Kind::Instances => "a queue instance",
        }
    }

    /// Starts an element of this kind (a function's or a queue instance's uses are
    /// recorded from here on): the key of the container streamed inside it, and that
    /// container's kind; `None` for an instruction, which is read as text.
    pub(super) fn begin(self, reader: &mut Reader<'_>) -> Option<(&'static str, Kind)> {
        match self {
            Kind::Insts { .. } => None,
            Kind::Functions => {
                reader.begin_function();
                Some(("blocks", Kind::Blocks { depth: 0 }))
            }
            Kind::Blocks { depth } => Some(("instructions", Kind::Insts { depth })),
            Kind::Queues => Some(("blocks", Kind::Instances)),
            Kind::Instances => {
                reader.begin_instance();
                Some(("instructions", Kind::Insts { depth: 0 }))
            }
        }
    }
}

/// What a streamed container became.
pub(super) enum Streamed {
    Functions(Vec<Handle<Function>>),
    Queues(Vec<Handle<Queue>>),
    Blocks(Vec<Handle<Block>>),
    Insts(Vec<Handle<Inst>>),
    Instances(Vec<Handle<QueueInstance>>),
    /// Not an array: kept as it was.
    Raw(Value),
}

/// Handles collected while a container streams.
#[derive(Default)]
pub(super) struct Lowered {
    pub(super) functions: Vec<Handle<Function>>,
    pub(super) queues: Vec<Handle<Queue>>,
    pub(super) blocks: Vec<Handle<Block>>,
    pub(super) insts: Vec<Handle<Inst>>,
    pub(super) instances: Vec<Handle<QueueInstance>>,
}

impl Lowered {
    /// The handles of a container of `kind`.
    pub(super) fn streamed(self, kind: Kind) -> Streamed {
        match kind {
            Kind::Functions => Streamed::Functions(self.functions),
            Kind::Queues => Streamed::Queues(self.queues),
            Kind::Blocks { .. } => Streamed::Blocks(self.blocks),
            Kind::Insts { .. } => Streamed::Insts(self.insts),
            Kind::Instances => Streamed::Instances(self.instances),
        }
    }

    pub(super) fn push(&mut self, element: Option<One>) {
        match element {
            Some(One::Function(h)) => self.functions.push(h),
            Some(One::Queue(h)) => self.queues.push(h),
            Some(One::Block(h)) => self.blocks.push(h),
            Some(One::Instance(h)) => self.instances.push(h),
            None => {}
        }
    }
}

/// One lowered element.
pub(super) enum One {
    Function(Handle<Function>),
    Queue(Handle<Queue>),
    Block(Handle<Block>),
    Instance(Handle<QueueInstance>),
}

/// An element whose keys are read, lowered: `children` is what its streamed container
/// became, when it was an array. Both readers (`json::direct`, `json::stream`) end an element
/// with it.
pub(super) fn lower_element(
    reader: &mut Reader<'_>,
    kind: Kind,
    fields: Fields,
    pointer: &str,
    children: Option<Streamed>,
) -> Option<One> {
    match (kind, children) {
        (Kind::Functions, Some(Streamed::Blocks(blocks))) => {
            Some(One::Function(reader.function(fields, pointer, Some(blocks))))
        }
        (Kind::Functions, _) => Some(One::Function(reader.function(fields, pointer, None))),
        (Kind::Blocks { depth }, Some(Streamed::Insts(insts))) => {
            Some(One::Block(reader.block(fields, pointer, depth, Some(insts))))
        }
        (Kind::Blocks { depth }, _) => Some(One::Block(reader.block(fields, pointer, depth, None))),
        (Kind::Queues, Some(Streamed::Instances(instances))) => {
            Some(One::Queue(reader.queue(fields, pointer, Some(instances))))
        }
        (Kind::Queues, _) => Some(One::Queue(reader.queue(fields, pointer, None))),
        (Kind::Instances, Some(Streamed::Insts(insts))) => {
            Some(One::Instance(reader.instance(fields, pointer, Some(insts))))
        }
        (Kind::Instances, _) => Some(One::Instance(reader.instance(fields, pointer, None))),
        (Kind::Insts { .. }, _) => None,
    }
}
