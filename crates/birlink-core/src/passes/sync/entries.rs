//! An instruction's `sync_info` entries, read as the sync contract reads them
//! (docs/spec/sync.md §3): waits (`on_wait`: a comparison of a semaphore with a value)
//! and updates (`on_update`: an add or a write, on the own core or, with `target_core`,
//! another's). An entry that cannot be read is returned as `None` (BL0712 for the
//! caller); the modes are the Explorer's (`sem-inc`, `sem-add-imm`, `evt-set`, …).

use serde_json::Value;

use crate::model::view::{Cursor, JsonType, JsonView, Text};

/// A semaphore's type: a `semaphore` or an `event`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub(super) enum SemKind {
    /// `semaphore`.
    Semaphore,
    /// `event`.
    Event,
}

impl SemKind {
    /// `semaphore` or `event`.
    pub(super) fn as_str(self) -> &'static str {
        match self {
            SemKind::Semaphore => "semaphore",
            SemKind::Event => "event",
        }
    }
}

/// A semaphore of a core: the core's index, its type, its id.
pub(super) type SemKey = (usize, SemKind, u64);

/// A comparison a wait makes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(super) enum Cmp {
    /// `>=`.
    Ge,
    /// `>`.
    Gt,
    /// `==`.
    Eq,
    /// `!=`.
    Ne,
    /// `<=`.
    Le,
    /// `<`.
    Lt,
}

impl Cmp {
    fn parse(text: &str) -> Option<Cmp> {
        Some(match text {
            ">=" => Cmp::Ge,
            ">" => Cmp::Gt,
            "==" => Cmp::Eq,
            "!=" => Cmp::Ne,
            "<=" => Cmp::Le,
            "<" => Cmp::Lt,
            _ => return None,
        })
    }

    /// Its spelling.
    pub(super) fn as_str(self) -> &'static str {
        match self {
            Cmp::Ge => ">=",
            Cmp::Gt => ">",
            Cmp::Eq => "==",
            Cmp::Ne => "!=",
            Cmp::Le => "<=",
            Cmp::Lt => "<",
        }
    }

    /// Whether `value cmp against` holds.
    pub(super) fn holds(self, value: i64, against: i64) -> bool {
        match self {
            Cmp::Ge => value >= against,
            Cmp::Gt => value > against,
            Cmp::Eq => value == against,
            Cmp::Ne => value != against,
            Cmp::Le => value <= against,
            Cmp::Lt => value < against,
        }
    }
}

/// One `on_wait` entry, as the program holds it: 16 bytes, its semaphore by number
/// ([`super::program::Program::semaphores`]: the core's own, of the type and id the
/// entry names).
#[derive(Clone, Debug, PartialEq)]
pub(super) struct Wait {
    /// The value compared with.
    pub value: i64,
    /// Its semaphore's number.
    pub sem: u32,
    /// The comparison.
    pub cmp: Cmp,
    /// `sem-ge-reg`: the register holding the value is unknown (not exact).
    pub register: bool,
    /// `evt-set-then-clear`: the event is cleared to 0 when it issues.
    pub clears: bool,
}

impl Wait {
    /// Whether it only waits for a count to grow (`>=`, `>`, no clearing, no register).
    pub(super) fn is_monotone(&self) -> bool {
        matches!(self.cmp, Cmp::Ge | Cmp::Gt) && !self.clears && !self.register
    }
}

/// What an update does to its semaphore.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Change {
    /// Adds (a negative value subtracts).
    Add(i64),
    /// Writes.
    Write(i64),
}

/// An update's mode, the Explorer's names.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(super) enum Mode {
    /// `sem-inc`.
    SemInc,
    /// `sem-dec`.
    SemDec,
    /// `sem-add-imm`.
    SemAddImm,
    /// `sem-sub-imm`.
    SemSubImm,
    /// `sem-wr-imm` (also `GroupResetSemaphores`' writes).
    SemWrImm,
    /// `evt-set`.
    EvtSet,
    /// `evt-clr`.
    EvtClr,
}

impl Mode {
    const ALL: [(Mode, &'static str); 7] = [
        (Mode::SemInc, "sem-inc"),
        (Mode::SemDec, "sem-dec"),
        (Mode::SemAddImm, "sem-add-imm"),
        (Mode::SemSubImm, "sem-sub-imm"),
        (Mode::SemWrImm, "sem-wr-imm"),
        (Mode::EvtSet, "evt-set"),
        (Mode::EvtClr, "evt-clr"),
    ];

    /// A mode [`update`] read (one of [`Mode::ALL`]'s names).
    fn of(name: &str) -> Mode {
        Mode::ALL.iter().find(|(_, n)| *n == name).map_or(Mode::SemAddImm, |(m, _)| *m)
    }

    /// Its name.
    pub(super) fn as_str(self) -> &'static str {
        Mode::ALL.iter().find(|(m, _)| *m == self).map_or("sem-add-imm", |(_, n)| n)
    }
}

/// One `on_update` entry, as the program holds it: 16 bytes (a set with an update on
/// every one of 800k instructions holds 13 MB of them), its semaphore by number
/// ([`super::program::Program::semaphores`]: the core it changes, the type and id).
#[derive(Clone, Debug, PartialEq)]
pub(super) struct Update {
    /// The value as §3 reads it (also for modes that ignore it).
    pub value: i64,
    /// Its semaphore's number (the peer's id, after `vnc_link`, for a remote one).
    pub sem: u32,
    /// The mode as read (`sem-add-imm` when absent; `evt-set` for an event).
    pub mode: Mode,
    /// It names a `target_core`.
    pub remote: bool,
}

impl Update {
    /// What it does (its mode and value: `sem-sub-imm`'s negation was checked when it
    /// was read).
    pub(super) fn change(&self) -> Change {
        match self.mode {
            Mode::SemInc => Change::Add(1),
            Mode::SemDec => Change::Add(-1),
            Mode::SemAddImm => Change::Add(self.value),
            Mode::SemSubImm => Change::Add(self.value.wrapping_neg()),
            Mode::SemWrImm => Change::Write(self.value),
            Mode::EvtSet => Change::Write(1),
            Mode::EvtClr => Change::Write(0),
        }
    }

    /// Whether it only makes its semaphore grow (`evt-set` is judged with the other
    /// updates of the semaphore by the caller).
    pub(super) fn grows(&self) -> bool {
        match self.change() {
            Change::Add(v) => v >= 0,
            Change::Write(_) => self.mode == Mode::EvtSet,
        }
    }
}

/// An entry's keys, read in one pass over its members.
struct Keys<'a, V> {
    id: Option<V>,
    mode: Option<V>,
    kind: Option<V>,
    cmp: Option<V>,
    /// `wait_value` or `update_value` (winning over `value`).
    named_value: Option<V>,
    value: Option<V>,
    from: Option<V>,
    target_core: Option<V>,
    _text: std::marker::PhantomData<&'a ()>,
}

impl<'a, V: JsonView<'a>> Keys<'a, V> {
    /// The keys of `entry` (the last of a key, as a map keeps it); `value_key` is
    /// `wait_value` or `update_value`.
    fn of(entry: V, value_key: &str) -> Keys<'a, V> {
        let mut keys = Keys::none();
        entry.for_each_member(&mut |key, value| keys.set(key, value, value_key));
        keys
    }

    fn none() -> Keys<'a, V> {
        Keys {
            id: None,
            mode: None,
            kind: None,
            cmp: None,
            named_value: None,
            value: None,
            from: None,
            target_core: None,
            _text: std::marker::PhantomData,
        }
    }

    /// Keeps `value` when `key` is one an entry is read by.
    fn set(&mut self, key: &str, value: V, value_key: &str) {
        match key {
            "id" => self.id = Some(value),
            "mode" => self.mode = Some(value),
            "type" => self.kind = Some(value),
            "cmp" => self.cmp = Some(value),
            "value" => self.value = Some(value),
            "from" => self.from = Some(value),
            "target_core" => self.target_core = Some(value),
            key if key == value_key => self.named_value = Some(value),
            _ => {}
        }
    }

    /// `mode`: `Some(None)` without one, `None` when it is not a string.
    fn mode(&self) -> Option<Option<&'a str>> {
        match self.mode {
            None => Some(None),
            Some(mode) => Some(Some(mode.as_str()?)),
        }
    }

    /// The type it names, else the one its mode implies.
    fn kind(&self, mode: Option<&str>) -> SemKind {
        match self.kind.and_then(V::as_str) {
            Some("semaphore") => SemKind::Semaphore,
            Some("event") => SemKind::Event,
            _ if mode.is_some_and(|m| m.starts_with("evt-")) => SemKind::Event,
            _ => SemKind::Semaphore,
        }
    }
}

/// The keys of the entry object at `cursor`, read in one pass (`None`: the cursor read
/// no object, or met an escape).
fn keys_at<'a>(cursor: &mut Cursor<'a>, value_key: &str) -> Option<Keys<'a, Text<'a>>> {
    let mut keys = Keys::none();
    cursor.object(|cursor, key| {
        keys.set(key, cursor.value()?, value_key);
        Some(())
    })?;
    Some(keys)
}

/// An `on_wait` entry of core `own`, or `None` when it cannot be read; `number` numbers
/// its semaphore (only an entry that is read names one).
pub(super) fn wait<'a, V: JsonView<'a>>(entry: V, own: usize, number: impl FnMut(SemKey) -> u32) -> Option<Wait> {
    wait_of(Keys::of(entry, "wait_value"), own, number)
}

/// The `on_wait` entry at `cursor`, stepped over: `None` when it cannot be read there
/// (for the caller to read it with [`wait`]).
pub(super) fn wait_at(cursor: &mut Cursor<'_>, own: usize, number: impl FnMut(SemKey) -> u32) -> Option<Wait> {
    wait_of(keys_at(cursor, "wait_value")?, own, number)
}

fn wait_of<'a, V: JsonView<'a>>(keys: Keys<'a, V>, own: usize, mut number: impl FnMut(SemKey) -> u32) -> Option<Wait> {
    let id = keys.id?.as_u64()?;
    let mode = keys.mode()?;
    let (clears, register, default_value) = match mode {
        None | Some("sem-ge-imm") => (false, false, 0),
        Some("sem-ge-reg") => (false, true, 0),
        Some("evt-set-then-clear") => (true, false, 1),
        Some(_) => return None,
    };
    let cmp = match keys.cmp {
        None => Cmp::Ge,
        Some(cmp) => Cmp::parse(cmp.as_str()?)?,
    };
    let value = match keys.named_value.or(keys.value) {
        None => default_value,
        Some(v) => v.as_i64()?,
    };
    // An `evt-set-then-clear` waits for the event `id`, whatever its `type`.
    let kind = if clears { SemKind::Event } else { keys.kind(mode) };
    Some(Wait { value, sem: number((own, kind, id)), cmp, register, clears })
}

/// A wait's `from`, as read (shown only: read again where it is shown).
pub(super) fn wait_from<'a, V: JsonView<'a>>(entry: V) -> Option<Value> {
    let from = Keys::of(entry, "wait_value").from?;
    Some(serde_json::from_str(&from.compact_text()).unwrap_or(Value::Null))
}

/// An `on_update` entry, or `None` when it cannot be read (`cores` is the number of
/// cores: a `target_core` must name one; `own` is the issuing core's index); `number`
/// numbers its semaphore (only an entry that is read names one).
pub(super) fn update<'a, V: JsonView<'a>>(
    entry: V,
    cores: u64,
    own: usize,
    number: impl FnMut(SemKey) -> u32,
) -> Option<Update> {
    update_of(Keys::of(entry, "update_value"), cores, own, number)
}

/// The `on_update` entry at `cursor`, stepped over: `None` when it cannot be read there
/// (for the caller to read it with [`update`]).
pub(super) fn update_at(
    cursor: &mut Cursor<'_>,
    cores: u64,
    own: usize,
    number: impl FnMut(SemKey) -> u32,
) -> Option<Update> {
    update_of(keys_at(cursor, "update_value")?, cores, own, number)
}

fn update_of<'a, V: JsonView<'a>>(
    keys: Keys<'a, V>,
    cores: u64,
    own: usize,
    mut number: impl FnMut(SemKey) -> u32,
) -> Option<Update> {
    let id = keys.id?.as_u64()?;
    let mode = keys.mode()?;
    let kind = keys.kind(mode);
    let value = match keys.named_value.or(keys.value) {
        None => 1,
        Some(v) => v.as_i64()?,
    };
    let mode = mode.unwrap_or(if kind == SemKind::Event { "evt-set" } else { "sem-add-imm" });
    match mode {
        "sem-inc" | "sem-dec" | "sem-add-imm" | "sem-wr-imm" | "evt-set" | "evt-clr" => {}
        "sem-sub-imm" => {
            value.checked_neg()?;
        }
        _ => return None,
    }
    let target = match keys.target_core {
        None => None,
        Some(core) if core.json_type() == JsonType::Null => None,
        Some(core) => Some(core.as_u64().filter(|&c| c < cores)?),
    };
    // Cores are at most `limits::MAX_LNC`: an index fits in 16 bits.
    let core = u16::try_from(target.map_or(own as u64, |t| t)).ok()?;
    Some(Update { value, sem: number((usize::from(core), kind, id)), mode: Mode::of(mode), remote: target.is_some() })
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    /// Numbers semaphores as first named, into `keys`.
    fn numbering(keys: &mut Vec<SemKey>) -> impl FnMut(SemKey) -> u32 + '_ {
        |key| match keys.iter().position(|k| *k == key) {
            Some(at) => at as u32,
            None => {
                keys.push(key);
                keys.len() as u32 - 1
            }
        }
    }

    #[test]
    fn waits_read_their_modes_values_and_comparisons() -> Result<(), &'static str> {
        let mut keys = Vec::new();
        let w =
            wait(&json!({"id": 4, "mode": "sem-ge-imm", "wait_value": 16}), 1, numbering(&mut keys)).ok_or("reads")?;
        assert_eq!((w.sem, w.cmp, w.value, w.is_monotone()), (0, Cmp::Ge, 16, true));
        let w = wait(&json!({"id": 2, "value": 3, "cmp": "=="}), 1, numbering(&mut keys)).ok_or("reads")?;
        assert_eq!((w.sem, w.cmp, w.value, w.is_monotone()), (1, Cmp::Eq, 3, false));
        let w = wait(&json!({"id": 7, "mode": "evt-set-then-clear", "type": "semaphore"}), 1, numbering(&mut keys))
            .ok_or("reads")?;
        assert_eq!((w.sem, w.value, w.clears, w.is_monotone()), (2, 1, true, false));
        let w =
            wait(&json!({"id": 4, "mode": "sem-ge-reg", "wait_value": 2}), 1, numbering(&mut keys)).ok_or("reads")?;
        assert!(w.register && !w.is_monotone());
        assert_eq!(w.sem, 0, "the same semaphore, the same number");
        assert!(wait(&json!({"id": -1}), 1, numbering(&mut keys)).is_none());
        assert!(wait(&json!({"id": 1, "mode": "sem-spin"}), 1, numbering(&mut keys)).is_none());
        assert!(wait(&json!({"id": 1, "cmp": "~"}), 1, numbering(&mut keys)).is_none());
        // A wait's semaphore is its own core's; an entry not read numbers none.
        assert_eq!(keys, [(1, SemKind::Semaphore, 4), (1, SemKind::Semaphore, 2), (1, SemKind::Event, 7)]);
        assert_eq!(std::mem::size_of::<Wait>(), 16);
        Ok(())
    }

    #[test]
    fn updates_read_their_modes_and_targets() -> Result<(), &'static str> {
        let mut keys = Vec::new();
        let u = update(&json!({"id": 3, "mode": "sem-inc", "update_value": 9}), 2, 0, numbering(&mut keys))
            .ok_or("reads")?;
        assert_eq!((u.change(), u.sem, u.remote, u.grows()), (Change::Add(1), 0, false, true));
        let remote = json!({"id": 3, "mode": "sem-sub-imm", "update_value": 2, "target_core": 1});
        let u = update(&remote, 2, 0, numbering(&mut keys)).ok_or("reads")?;
        assert_eq!((u.change(), u.sem, u.remote, u.grows()), (Change::Add(-2), 1, true, false));
        let u = update(&json!({"id": 3}), 2, 1, numbering(&mut keys)).ok_or("reads")?;
        assert_eq!((u.change(), u.mode.as_str(), u.sem), (Change::Add(1), "sem-add-imm", 1));
        let text = r#"{"id":3,"mode":"sem-wr-imm","update_value":-4,"target_core":null}"#;
        let u = update(crate::model::view::Text(text), 2, 1, numbering(&mut keys)).ok_or("reads as text")?;
        assert_eq!((u.change(), u.sem, u.remote, u.mode), (Change::Write(-4), 1, false, Mode::SemWrImm));
        let u = update(&json!({"id": 5, "type": "event"}), 2, 0, numbering(&mut keys)).ok_or("reads")?;
        assert_eq!((u.sem, u.change(), u.mode.as_str(), u.grows()), (2, Change::Write(1), "evt-set", true));
        assert!(update(&json!({"id": 3, "target_core": 2}), 2, 0, numbering(&mut keys)).is_none(), "no core 2");
        assert!(update(&json!({"id": 3, "mode": "sem-xor"}), 2, 0, numbering(&mut keys)).is_none());
        let min = json!({"id": 3, "mode": "sem-sub-imm", "update_value": i64::MIN});
        assert!(update(&min, 2, 0, numbering(&mut keys)).is_none());
        // The core it changes: its target's, else the issuing core's.
        assert_eq!(keys, [(0, SemKind::Semaphore, 3), (1, SemKind::Semaphore, 3), (0, SemKind::Event, 5)]);
        assert_eq!(std::mem::size_of::<Update>(), 16);
        Ok(())
    }
}
