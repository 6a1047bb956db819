//! What an entity of a module is ([`EntityKind`]) and how to name one so that the name
//! survives a re-run ([`EntityKey`]).
//!
//! Handles are positions in arenas: they change when an unrelated entity is added, and
//! they never leave the core. Reports, diagnostics and views name an entity by its
//! kind and names instead. An [`EntityKey`] is the full, content-derived address: the
//! kind, the core whose partition holds it, and the names that find it from the top —
//! for an instruction its function and block as well as its own name, since real dumps
//! repeat instruction names across loop bodies. Two instructions of one block that
//! share a name are told apart by their occurrence (`mm0`, `mm0#1`), counted among that
//! name only, so adding other instructions never changes a key.
//!
//! The text form is what links carry (`docs/spec/embed.md` §2):
//!
//! ```text
//! function:1:nc01
//! block:1:nc01/Block1
//! instruction:1:nc01/Block1/mm0
//! instruction:1:nc01/Block1/mm0#1          the second `mm0` of that block
//! set:0:nc00/c_partial_0_set
//! memloc:0:nc00/c_partial_0
//! queue:-:qSyncIO                           a merged queue spans cores
//! instance:1:qSyncIO/qSyncIO_0_defId_1
//! instruction:1:@qSyncIO/qSyncIO_0_defId_1/dma_0   a DMA block of a queue instance
//! module:-:nc00~1sgLnk
//! ```
//!
//! Names are escaped like JSON pointer segments (`~0` for `~`, `~1` for `/`), plus `~2`
//! for an `@` that starts a name and `~3` for `#`, so any name round-trips.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

/// The kinds of entities a diagnostic or a view can be about.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum EntityKind {
    /// A whole module (an input, or the linked one).
    Module,
    /// A function.
    Function,
    /// A basic block (top-level or a `Loop` body).
    Block,
    /// An instruction of a block, or a DMA block of a queue instance.
    Instruction,
    /// A memory-location set.
    Set,
    /// A memory location.
    Memloc,
    /// A DMA queue.
    Queue,
    /// A queue instance.
    Instance,
    /// An input file.
    File,
}

impl EntityKind {
    /// Every kind.
    pub const ALL: [EntityKind; 9] = [
        EntityKind::Module,
        EntityKind::Function,
        EntityKind::Block,
        EntityKind::Instruction,
        EntityKind::Set,
        EntityKind::Memloc,
        EntityKind::Queue,
        EntityKind::Instance,
        EntityKind::File,
    ];

    /// The kind's name, as on the wire (`memloc`, `instance`).
    pub fn as_str(self) -> &'static str {
        match self {
            EntityKind::Module => "module",
            EntityKind::Function => "function",
            EntityKind::Block => "block",
            EntityKind::Instruction => "instruction",
            EntityKind::Set => "set",
            EntityKind::Memloc => "memloc",
            EntityKind::Queue => "queue",
            EntityKind::Instance => "instance",
            EntityKind::File => "file",
        }
    }

    /// A kind by its name.
    pub fn parse(name: &str) -> Option<EntityKind> {
        EntityKind::ALL.into_iter().find(|k| k.as_str() == name)
    }
}

impl fmt::Display for EntityKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.pad(self.as_str())
    }
}

/// Where an entity is found, kind by kind: the names from the top of the module down.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum EntityPath {
    /// A module, by name.
    Module(String),
    /// An input file, by path.
    File(String),
    /// A function.
    Function {
        /// Its name.
        function: String,
    },
    /// A block (block names are unique in a function, nested ones included).
    Block {
        /// The function.
        function: String,
        /// The block.
        block: String,
    },
    /// An instruction of a function's block.
    Instruction {
        /// The function.
        function: String,
        /// The block that holds it (a `Loop` body for a nested one).
        block: String,
        /// Its name.
        name: String,
        /// Which of the block's instructions of that name (0 for the first).
        occurrence: u32,
    },
    /// A memory-location set of a function.
    Set {
        /// The function.
        function: String,
        /// The set.
        set: String,
    },
    /// A memory location (names are unique in a function).
    Memloc {
        /// The function.
        function: String,
        /// The location.
        memloc: String,
    },
    /// A DMA queue.
    Queue {
        /// Its name.
        queue: String,
    },
    /// A queue instance.
    Instance {
        /// The queue.
        queue: String,
        /// The instance's (linked) name.
        instance: String,
    },
    /// An instruction (a DMA block) of a queue instance.
    QueueInstruction {
        /// The queue.
        queue: String,
        /// The instance.
        instance: String,
        /// Its name.
        name: String,
        /// Which of the instance's instructions of that name (0 for the first).
        occurrence: u32,
    },
}

/// A content-derived, stable address of one entity: kind, core and names.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct EntityKey {
    /// The core whose partition holds the entity (`None`: `main`, a merged queue, a
    /// module, a file).
    pub core: Option<u64>,
    /// The names that find it.
    pub path: EntityPath,
}

impl EntityKey {
    /// The entity's kind.
    pub fn kind(&self) -> EntityKind {
        match self.path {
            EntityPath::Module(_) => EntityKind::Module,
            EntityPath::File(_) => EntityKind::File,
            EntityPath::Function { .. } => EntityKind::Function,
            EntityPath::Block { .. } => EntityKind::Block,
            EntityPath::Instruction { .. } | EntityPath::QueueInstruction { .. } => EntityKind::Instruction,
            EntityPath::Set { .. } => EntityKind::Set,
            EntityPath::Memloc { .. } => EntityKind::Memloc,
            EntityPath::Queue { .. } => EntityKind::Queue,
            EntityPath::Instance { .. } => EntityKind::Instance,
        }
    }

    /// The entity's own name (the last of its names).
    pub fn name(&self) -> &str {
        match &self.path {
            EntityPath::Module(name) | EntityPath::File(name) => name,
            EntityPath::Function { function } => function,
            EntityPath::Block { block, .. } => block,
            EntityPath::Instruction { name, .. } | EntityPath::QueueInstruction { name, .. } => name,
            EntityPath::Set { set, .. } => set,
            EntityPath::Memloc { memloc, .. } => memloc,
            EntityPath::Queue { queue } => queue,
            EntityPath::Instance { instance, .. } => instance,
        }
    }

    /// What holds it, the way views and diagnostics name a parent: the function of a
    /// block, instruction, set or location; the queue of an instance; the instance of a
    /// queue's DMA block.
    pub fn parent(&self) -> Option<&str> {
        match &self.path {
            EntityPath::Module(_) | EntityPath::File(_) | EntityPath::Function { .. } | EntityPath::Queue { .. } => {
                None
            }
            EntityPath::Block { function, .. }
            | EntityPath::Instruction { function, .. }
            | EntityPath::Set { function, .. }
            | EntityPath::Memloc { function, .. } => Some(function),
            EntityPath::Instance { queue, .. } => Some(queue),
            EntityPath::QueueInstruction { instance, .. } => Some(instance),
        }
    }
}

/// Why a text is not an entity key.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KeyError(pub String);

impl fmt::Display for KeyError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

fn escape(name: &str, first: bool, out: &mut String) {
    for (i, c) in name.chars().enumerate() {
        match c {
            '~' => out.push_str("~0"),
            '/' => out.push_str("~1"),
            '@' if i == 0 && first => out.push_str("~2"),
            '#' => out.push_str("~3"),
            c => out.push(c),
        }
    }
}

fn unescape(text: &str) -> Result<String, KeyError> {
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        if c != '~' {
            out.push(c);
            continue;
        }
        match chars.next() {
            Some('0') => out.push('~'),
            Some('1') => out.push('/'),
            Some('2') => out.push('@'),
            Some('3') => out.push('#'),
            other => {
                return Err(KeyError(format!(
                    "`~{}` is not an escape in an entity key (`~0` `~`, `~1` `/`, `~2` `@`, `~3` `#`)",
                    other.map(String::from).unwrap_or_default()
                )))
            }
        }
    }
    Ok(out)
}

impl fmt::Display for EntityKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut out = String::new();
        out.push_str(self.kind().as_str());
        out.push(':');
        match self.core {
            Some(core) => out.push_str(&core.to_string()),
            None => out.push('-'),
        }
        out.push(':');
        let mut names = |names: &[&str], queue: bool, occurrence: Option<u32>| {
            for (i, name) in names.iter().enumerate() {
                if i > 0 {
                    out.push('/');
                }
                if i == 0 && queue {
                    out.push('@');
                }
                escape(name, i == 0, &mut out);
            }
            if let Some(n) = occurrence.filter(|n| *n > 0) {
                out.push('#');
                out.push_str(&n.to_string());
            }
        };
        match &self.path {
            EntityPath::Module(name) | EntityPath::File(name) => names(&[name], false, None),
            EntityPath::Function { function } => names(&[function], false, None),
            EntityPath::Block { function, block } => names(&[function, block], false, None),
            EntityPath::Instruction { function, block, name, occurrence } => {
                names(&[function, block, name], false, Some(*occurrence))
            }
            EntityPath::Set { function, set } => names(&[function, set], false, None),
            EntityPath::Memloc { function, memloc } => names(&[function, memloc], false, None),
            EntityPath::Queue { queue } => names(&[queue], true, None),
            EntityPath::Instance { queue, instance } => names(&[queue, instance], true, None),
            EntityPath::QueueInstruction { queue, instance, name, occurrence } => {
                names(&[queue, instance, name], true, Some(*occurrence))
            }
        }
        f.write_str(&out)
    }
}

impl FromStr for EntityKey {
    type Err = KeyError;

    fn from_str(text: &str) -> Result<EntityKey, KeyError> {
        let mut parts = text.splitn(3, ':');
        let (Some(kind), Some(core), Some(path)) = (parts.next(), parts.next(), parts.next()) else {
            return Err(KeyError(format!("`{text}` is not `kind:core:names`")));
        };
        let kind = EntityKind::parse(kind).ok_or_else(|| KeyError(format!("`{kind}` is not an entity kind")))?;
        let core = match core {
            "-" => None,
            digits => Some(digits.parse::<u64>().map_err(|_| KeyError(format!("`{digits}` is not a core")))?),
        };
        let (queue, path) = match path.strip_prefix('@') {
            Some(rest) => (true, rest),
            None => (false, path),
        };
        let raw: Vec<&str> = path.split('/').collect();
        let mut names = Vec::with_capacity(raw.len());
        let mut occurrence = 0u32;
        for (i, segment) in raw.iter().enumerate() {
            let segment = if i + 1 == raw.len() && kind == EntityKind::Instruction {
                match segment.rsplit_once('#') {
                    Some((name, n)) => {
                        occurrence = n
                            .parse()
                            .ok()
                            .filter(|n| *n > 0)
                            .ok_or_else(|| KeyError(format!("`#{n}` is not an occurrence (1, 2, …)")))?;
                        name
                    }
                    None => segment,
                }
            } else {
                segment
            };
            names.push(unescape(segment)?);
        }
        let wrong =
            |expected: &str| Err(KeyError(format!("a `{}` key names {expected}, found `{path}`", kind.as_str())));
        let path = match (kind, queue, names.as_slice()) {
            (EntityKind::Module, false, [name]) => EntityPath::Module(name.clone()),
            (EntityKind::File, false, [name]) => EntityPath::File(name.clone()),
            (EntityKind::Function, false, [function]) => EntityPath::Function { function: function.clone() },
            (EntityKind::Block, false, [function, block]) => {
                EntityPath::Block { function: function.clone(), block: block.clone() }
            }
            (EntityKind::Instruction, false, [function, block, name]) => EntityPath::Instruction {
                function: function.clone(),
                block: block.clone(),
                name: name.clone(),
                occurrence,
            },
            (EntityKind::Instruction, true, [queue, instance, name]) => EntityPath::QueueInstruction {
                queue: queue.clone(),
                instance: instance.clone(),
                name: name.clone(),
                occurrence,
            },
            (EntityKind::Set, false, [function, set]) => {
                EntityPath::Set { function: function.clone(), set: set.clone() }
            }
            (EntityKind::Memloc, false, [function, memloc]) => {
                EntityPath::Memloc { function: function.clone(), memloc: memloc.clone() }
            }
            (EntityKind::Queue, true, [queue]) => EntityPath::Queue { queue: queue.clone() },
            (EntityKind::Instance, true, [queue, instance]) => {
                EntityPath::Instance { queue: queue.clone(), instance: instance.clone() }
            }
            (EntityKind::Module | EntityKind::File | EntityKind::Function, _, _) => return wrong("one name"),
            (EntityKind::Block | EntityKind::Set | EntityKind::Memloc, _, _) => {
                return wrong("a function and a name (`function/name`)")
            }
            (EntityKind::Instruction, _, _) => return wrong("`function/block/name` or `@queue/instance/name`"),
            (EntityKind::Queue, _, _) => return wrong("`@queue`"),
            (EntityKind::Instance, _, _) => return wrong("`@queue/instance`"),
        };
        Ok(EntityKey { core, path })
    }
}

impl Serialize for EntityKey {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for EntityKey {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let text = String::deserialize(deserializer)?;
        text.parse().map_err(serde::de::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(core: Option<u64>, path: EntityPath) -> EntityKey {
        EntityKey { core, path }
    }

    #[test]
    fn keys_read_as_documented() {
        let instruction = key(
            Some(1),
            EntityPath::Instruction {
                function: "nc01".into(),
                block: "Block1".into(),
                name: "mm0".into(),
                occurrence: 0,
            },
        );
        assert_eq!(instruction.to_string(), "instruction:1:nc01/Block1/mm0");
        let dma = key(
            Some(1),
            EntityPath::QueueInstruction {
                queue: "qSyncIO".into(),
                instance: "qSyncIO_0_defId_1".into(),
                name: "dma_0".into(),
                occurrence: 2,
            },
        );
        assert_eq!(dma.to_string(), "instruction:1:@qSyncIO/qSyncIO_0_defId_1/dma_0#2");
        let module = key(None, EntityPath::Module("nc00/sgLnk".into()));
        assert_eq!(module.to_string(), "module:-:nc00~1sgLnk");
        assert_eq!(dma.kind(), EntityKind::Instruction);
        assert_eq!(dma.parent(), Some("qSyncIO_0_defId_1"));
    }

    #[test]
    fn awkward_names_round_trip() {
        let names = ["inst__I-5-0:send_k_buf", "a/b", "~x~1", "@start", "mid@dle", "#1", "x#2", "", "é ü", "a:b:c"];
        for name in names {
            for k in [
                key(Some(0), EntityPath::Function { function: name.into() }),
                key(Some(3), EntityPath::Memloc { function: name.into(), memloc: name.into() }),
                key(
                    Some(1),
                    EntityPath::Instruction {
                        function: name.into(),
                        block: name.into(),
                        name: name.into(),
                        occurrence: 4,
                    },
                ),
                key(None, EntityPath::Queue { queue: name.into() }),
                key(
                    Some(2),
                    EntityPath::QueueInstruction {
                        queue: name.into(),
                        instance: name.into(),
                        name: name.into(),
                        occurrence: 0,
                    },
                ),
                key(None, EntityPath::File(name.into())),
            ] {
                let text = k.to_string();
                assert_eq!(text.parse::<EntityKey>().as_ref(), Ok(&k), "{text}");
                let json = serde_json::to_string(&k).unwrap_or_default();
                assert_eq!(serde_json::from_str::<EntityKey>(&json).ok().as_ref(), Some(&k), "{json}");
            }
        }
    }

    #[test]
    fn malformed_keys_say_what_is_wrong() {
        for (text, says) in [
            ("function", "kind:core:names"),
            ("widget:0:x", "not an entity kind"),
            ("function:x:main", "not a core"),
            ("block:0:only", "function and a name"),
            ("instruction:0:f/b/n#0", "occurrence"),
            ("memloc:0:f/a~9", "not an escape"),
            ("queue:-:q", "`@queue`"),
        ] {
            match text.parse::<EntityKey>() {
                Ok(key) => panic!("{text} parsed as {key:?}"),
                Err(error) => assert!(error.0.contains(says), "{text}: {error}"),
            }
        }
    }
}
