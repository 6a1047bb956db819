//! Messages between the page and the link worker.
//!
//! The page never holds file contents: uploads and fetched samples travel as `Blob`
//! handles (structured-cloned, not copied into wasm memory) and the worker reads them.
//! Messages are encoded with serde-wasm-bindgen ([`Codec`]), which passes a `Blob`
//! through untouched and turns bytes into `Uint8Array`s.

use serde::{Deserialize, Serialize};
use wasm_bindgen::JsValue;

use birlink_core::model::entity::EntityKey;
use birlink_core::output::report::ModuleUnit;
use birlink_core::tools::log::{Beside, Finding, Located, LogReading};
use birlink_core::tools::query::{EntityQuery, EntityView, Original, SearchHit};
use birlink_core::tools::reduce::Level;
use birlink_core::{Code, Pass};

/// UTF-8 bytes crossing between the threads as one `Uint8Array` (serde-wasm-bindgen
/// passes it through untouched): a large text crosses in one copy, where a string would
/// cross as UTF-16 and be converted back, and JavaScript objects one property at a time.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Bytes(#[serde(with = "serde_wasm_bindgen::preserve")] pub js_sys::Uint8Array);

impl Bytes {
    /// Bytes to send.
    pub fn from(bytes: &[u8]) -> Bytes {
        Bytes(js_sys::Uint8Array::from(bytes))
    }

    /// The bytes received.
    pub fn to_vec(&self) -> Vec<u8> {
        self.0.to_vec()
    }
}

/// One input file for a run.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct InputFile {
    /// Its name as shown (the upload's relative path, a sample's name, a URL).
    pub path: String,
    /// Its bytes, as a browser `Blob`.
    #[serde(with = "serde_wasm_bindgen::preserve")]
    pub blob: web_sys::Blob,
}

/// A compiler work directory's other files, for the link's last step (`sgLnk/` and
/// the tensor maps): every file by name and size, the bytes of those it reads.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct WorkdirFiles {
    /// The pass whose dumps are linked (`None`: the default rule).
    pub after: Option<String>,
    /// Every file of the directory: its path and size.
    pub files: Vec<(String, u64)>,
    /// The files whose bytes the step reads (`birlink_core::read::workdir::wanted`).
    pub wanted: Vec<InputFile>,
}

/// A link to run.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct LinkRequest {
    /// The run it is: answers name it, and the page drops answers for other runs.
    pub run: u64,
    /// The inputs, in order.
    pub files: Vec<InputFile>,
    /// `vnc_nc_count`, when the user set it.
    pub lnc: Option<u64>,
    /// How to link, when the user chose (`flow=`); `None`: decided as the compiler
    /// decides (docs/spec/link.md §2).
    #[serde(default)]
    pub flow: Option<birlink_core::Flow>,
    /// The work directory the files came from, when they did.
    pub workdir: Option<WorkdirFiles>,
    /// The other side's run, whose session the worker keeps (a comparison holds two);
    /// every other session is dropped first.
    pub keep: Option<u64>,
}

/// What the page asks the worker. Every request names its `run` (the link it is about);
/// the worker answers only for the run it holds, and the page drops answers for others.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub enum Request {
    /// Run the pipeline over these files.
    Link(LinkRequest),
    /// Compare two runs the worker holds (`birlink_core::tools::compare`).
    Compare {
        /// A's run.
        a: u64,
        /// B's run.
        b: u64,
        /// Mask numbers in names.
        numbers: bool,
        /// A's core → B's core.
        core_map: Vec<(u64, u64)>,
    },
    /// Details of one entity of the linked module.
    Entity {
        run: u64,
        /// The entity.
        query: EntityQuery,
    },
    /// Details of the entity a key names (a link's `select=`).
    EntityByKey {
        run: u64,
        /// The key.
        key: EntityKey,
    },
    /// The link set as a link carries it (`share::data`).
    Share { run: u64 },
    /// The original JSON at a place in an input file.
    Original {
        run: u64,
        /// The input file.
        file: String,
        /// JSON pointer.
        pointer: String,
    },
    /// The canonical text of a unit of the linked module.
    Unit {
        run: u64,
        /// The unit.
        unit: ModuleUnit,
    },
    /// Names across cores.
    Search {
        run: u64,
        /// What to look for.
        text: String,
    },
    /// A file to download.
    Export {
        run: u64,
        /// Which.
        what: Export,
    },
    /// Find the names a compiler log mentions (`birlink_core::tools::log`), and hold
    /// the log beside the run.
    Locate {
        run: u64,
        /// The log.
        text: String,
    },
    /// Read a compiler log the user dropped or a sample carries (any size: read here,
    /// not on the page's thread), and, when the worker holds `run`, find its names in it
    /// and hold it beside it.
    ReadLog {
        /// The run the page shows (`None`: no link set).
        run: Option<u64>,
        /// Which log of the page's it is (answers for older ones are dropped).
        log: u64,
        /// The file.
        file: InputFile,
    },
    /// A log file's whole reading as JSON, to download (`birlink explain --log LOG
    /// [DUMPS…] --format json`'s bytes: beside `run` when the worker holds it).
    LogJson {
        /// The run the page shows.
        run: Option<u64>,
        /// The file.
        file: InputFile,
    },
    /// Read a link's `data=` (inflate, parse) into its files: work proportional to the
    /// data, so not on the page's thread. `run` is the run the side that asked is at
    /// (either side's: the answer finds it by number, as every answer does).
    Decode {
        run: u64,
        /// The `data=` text.
        data: String,
        /// The LNC the link's query sets, which wins over the data's.
        lnc: Option<u64>,
    },
    /// Reduce the link set to a minimal repro (first error kept), step by step.
    Reduce { run: u64 },
    /// Stop that reduction.
    CancelReduce { run: u64 },
    /// Read a work directory's dumps pass by pass (`tools::history`: the Passes view),
    /// a pass per slice, with progress; a newer order replaces it.
    History {
        /// The page's order (answers for older ones are dropped).
        seq: u64,
        /// The directory's dumps (their paths as picked).
        files: Vec<InputFile>,
        /// The passes in the order the log says they ran (empty: the dumps' `<n>`).
        ran: Vec<String>,
        /// A name to follow, or a pasted compiler error quoting one.
        entity: Option<String>,
        /// Follow it alone, with no pass table (the page holds the table already).
        no_table: bool,
    },
    /// Stop that reading.
    CancelHistory { seq: u64 },
    /// One pass's dump of a module against the module's previous dump
    /// (`tools::history::diff`).
    PassDiff {
        /// The page's order.
        seq: u64,
        /// The previous dump (`None`: the module's first).
        before: Option<InputFile>,
        /// The pass's dump.
        after: InputFile,
    },
    /// Replay the sync check's execution of the run to a step (the Sync view).
    Replay {
        run: u64,
        /// The step.
        upto: u64,
        /// How many steps before it to keep.
        window: u64,
    },
}

/// A compiler log file, read by the worker.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct LogRead {
    /// The run it was held beside, when the worker held it.
    pub run: Option<u64>,
    /// The whole log, read, less `runs[]` (a log of a thousand compiles is read back
    /// on the page's thread; the page shows one run, and the download is the worker's).
    pub reading: LogReading,
    /// How many runs the log holds.
    pub runs: usize,
    /// Its lines birlink knows.
    pub findings: Vec<Finding>,
    /// Where their names are in the run (per finding, per mention).
    pub located: Option<Vec<Vec<Located>>>,
    /// The log held beside the run.
    pub beside: Option<Beside>,
}

/// How far a reduction in the worker is.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ReduceStep {
    /// The round (every level once per round).
    pub round: u32,
    /// The level being reduced (`None`: done).
    pub level: Option<Level>,
    /// Tests run.
    pub tests: u32,
    /// Instructions left.
    pub instructions: u64,
    /// Bytes left (compact JSON).
    pub bytes: u64,
}

/// What a finished reduction kept.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ReducedSummary {
    /// The file's name (`reduced.json`).
    pub file_name: String,
    /// The code kept (`1514`).
    pub code: Code,
    /// Its pass.
    pub pass: Pass,
    /// Tests run.
    pub tests: u32,
    /// Bytes before and after.
    pub bytes: (u64, u64),
    /// Instructions before and after.
    pub instructions: (u64, u64),
    /// Milliseconds it took.
    pub ms: f64,
}

/// What can be exported from the worker.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Export {
    /// The linked module.
    Linked,
    /// The report.
    Report,
    /// The link set as one bundle document.
    Bundle,
    /// bir_linker's own log in the compiler's words (the compiler's flows).
    Log,
}

impl Export {
    /// The download's file name.
    pub fn file_name(self) -> &'static str {
        match self {
            Export::Linked => "linked.json",
            Export::Report => "report.json",
            Export::Bundle => "linkset.json",
            Export::Log => "bir_linker.log",
        }
    }
}

/// How long a run took in the worker.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct RunStats {
    /// Reading the blobs (each when the loader reaches it, inside the run).
    pub load_ms: f64,
    /// `birlink_core::run` itself, less reading the blobs.
    pub pipeline_ms: f64,
    /// Writing `report.json`.
    pub report_ms: f64,
    /// Input bytes.
    pub bytes: u64,
    /// The worker's wasm memory after the run (it only grows).
    pub memory_bytes: u64,
    /// The worker's wasm memory before the run (the blobs are read inside it).
    pub memory_read_bytes: u64,
}

/// What the worker answers.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub enum Response {
    /// A run is under way.
    Progress {
        run: u64,
        /// What it is doing.
        phase: String,
        /// Steps done.
        done: u32,
        /// Steps in all.
        total: u32,
    },
    /// A run finished: its `report.json`.
    Linked {
        run: u64,
        /// `report.json`, exactly as the CLI writes it, as UTF-8 bytes: a string would
        /// cross between the threads as UTF-16 and be converted back, which for the
        /// report of a large link is most of the page's work on receiving it.
        report: Bytes,
        /// Whether there is a linked module.
        linked: bool,
        /// Timings.
        stats: RunStats,
        /// Barriers and remote DMA blocks aligned across cores
        /// ([`birlink_core::tools::align::Alignment`]), as UTF-8
        /// JSON: a large link's alignment is thousands of short strings, which cross as
        /// bytes in one copy and as JavaScript objects one property at a time.
        alignment: Bytes,
    },
    /// An entity's details.
    Entity {
        run: u64,
        /// What was asked.
        query: EntityQuery,
        /// The answer, `None` when the linked module has no such entity.
        view: Option<Box<EntityView>>,
    },
    /// The link set's `data=`, or why it does not go in a link.
    Share {
        run: u64,
        /// The data, or why not.
        data: Result<String, String>,
    },
    /// Original JSON at a place.
    Original {
        run: u64,
        /// The file.
        file: String,
        /// The pointer.
        pointer: String,
        /// The answer.
        original: Option<Original>,
    },
    /// A unit's canonical text.
    Unit {
        run: u64,
        /// The unit.
        unit: ModuleUnit,
        /// Its text, `None` when there is no such unit.
        text: Option<String>,
    },
    /// Search results.
    Search {
        run: u64,
        /// What was searched.
        text: String,
        /// The hits.
        hits: Vec<SearchHit>,
    },
    /// A file to download.
    Export {
        run: u64,
        /// Which.
        what: Export,
        /// Its bytes.
        #[serde(with = "serde_wasm_bindgen::preserve")]
        blob: web_sys::Blob,
    },
    /// Where the names of a log are (one list per finding, one entry per mention).
    Located {
        run: u64,
        /// The log asked about.
        text: String,
        /// Per finding, per mention.
        located: Vec<Vec<Located>>,
        /// The log held beside the run.
        beside: Box<Beside>,
    },
    /// A log file read: a [`LogRead`] as JSON bytes (read back in a task of its own), or
    /// why it could not be.
    LogRead {
        /// The page's log it is.
        log: u64,
        /// What was read.
        json: Result<Bytes, String>,
    },
    /// A log file's JSON, to download.
    LogJson {
        /// Its bytes.
        #[serde(with = "serde_wasm_bindgen::preserve")]
        blob: web_sys::Blob,
    },
    /// A log file's JSON could not be made: why (the page says it).
    LogJsonFailed {
        /// Why.
        message: String,
    },
    /// A reduction is under way.
    Reducing {
        run: u64,
        /// How far.
        step: ReduceStep,
    },
    /// A reduction finished: the reduced link set as one file.
    Reduced {
        run: u64,
        /// What it kept.
        summary: ReducedSummary,
        /// The file.
        #[serde(with = "serde_wasm_bindgen::preserve")]
        blob: web_sys::Blob,
    },
    /// A reduction could not start or run (the link set does not fail, cannot be read).
    ReduceFailed {
        run: u64,
        /// Why.
        message: String,
    },
    /// How far a work directory's reading is.
    HistoryProgress {
        seq: u64,
        /// Passes read.
        done: u32,
        /// Passes dumped.
        total: u32,
        /// The pass being read next.
        pass: String,
    },
    /// A work directory's history (`birlink history --format json`'s bytes), or why
    /// there is none.
    History { seq: u64, json: Result<Bytes, String> },
    /// A pass's diff of a module (`tools::history::diff::PassDiff` as JSON), or why
    /// there is none.
    PassDiff { seq: u64, json: Result<Bytes, String> },
    /// The sync check's execution of a run, replayed to a step (`None`: no linked set).
    Replayed {
        run: u64,
        /// The replay.
        replay: Option<Box<birlink_core::output::sync::Replay>>,
    },
    /// A link's data, read: its files as blobs, the LNC.
    Decoded {
        run: u64,
        /// The `data=` text it was.
        data: String,
        /// The files.
        files: Vec<InputFile>,
        /// The LNC (the query's, else the data's).
        lnc: Option<u64>,
    },
    /// A link's data could not be read, and why.
    Undecodable {
        run: u64,
        /// Why.
        message: String,
    },
    /// Two runs compared: `birlink diff --format json`, as UTF-8 bytes (a large
    /// comparison is read in one go on the page), or why there is none.
    Compared {
        /// A's run.
        a: u64,
        /// B's run.
        b: u64,
        /// Numbers masked.
        numbers: bool,
        /// The core map.
        core_map: Vec<(u64, u64)>,
        /// The comparison's JSON, or why it could not be made.
        json: Result<Bytes, String>,
    },
    /// A request could not be read (a bug in birlink): said to the page as such.
    Broken {
        /// Why.
        message: String,
    },
    /// Something went wrong outside the pipeline (a blob that cannot be read).
    Failed {
        run: u64,
        /// What happened.
        message: String,
    },
}

/// A message as it crosses between the page and the worker: converted to a JavaScript
/// value by its own serializer (64-bit numbers as `BigInt`s, so a `u64` above 2^53 —
/// a hostile `lnc=`, a `CoreBarrier` id — crosses without loss), and read back the same
/// way. Neither side can fail: a message that cannot be converted, or read, arrives as
/// `Err` with the reason, and is shown as a failure of the run, never a panic.
#[derive(Debug)]
pub struct Wire<T>(pub Result<T, String>);

impl<T> Wire<T> {
    /// A message to send.
    pub fn new(message: T) -> Self {
        Wire(Ok(message))
    }
}

/// How a [`Wire`] is carried: the message's own JavaScript value, or why there is none.
#[derive(Serialize, Deserialize)]
enum Carried {
    Message(#[serde(with = "serde_wasm_bindgen::preserve")] JsValue),
    Unreadable(String),
}

/// The serializer messages are converted with.
const SERIALIZER: serde_wasm_bindgen::Serializer =
    serde_wasm_bindgen::Serializer::new().serialize_large_number_types_as_bigints(true);

impl<T: Serialize> Serialize for Wire<T> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let carried = match &self.0 {
            Ok(message) => match message.serialize(&SERIALIZER) {
                Ok(value) => Carried::Message(value),
                Err(error) => Carried::Unreadable(format!("a message could not be sent: {error}")),
            },
            Err(why) => Carried::Unreadable(why.clone()),
        };
        carried.serialize(serializer)
    }
}

impl<'de, T: for<'a> Deserialize<'a>> Deserialize<'de> for Wire<T> {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        Ok(Wire(match Carried::deserialize(deserializer)? {
            Carried::Message(value) => {
                serde_wasm_bindgen::from_value(value).map_err(|error| format!("a message could not be read: {error}"))
            }
            Carried::Unreadable(why) => Err(why),
        }))
    }
}

/// The worker codec: serde-wasm-bindgen in both directions, around gloo-worker's own
/// envelope (a handler id and one [`Wire`]). The envelope holds nothing a message can
/// make unreadable; should it ever be, the message is dropped with an error on the
/// console (a JavaScript exception, not a panic: the page and the worker go on).
pub struct Codec;

impl gloo_worker::Codec for Codec {
    fn encode<I: Serialize>(input: I) -> JsValue {
        match input.serialize(&SERIALIZER) {
            Ok(value) => value,
            Err(error) => wasm_bindgen::throw_str(&format!("birlink: a worker message could not be sent: {error}")),
        }
    }

    fn decode<O: for<'de> Deserialize<'de>>(input: JsValue) -> O {
        match serde_wasm_bindgen::from_value(input) {
            Ok(message) => message,
            Err(error) => wasm_bindgen::throw_str(&format!("birlink: a worker message could not be read: {error}")),
        }
    }
}
