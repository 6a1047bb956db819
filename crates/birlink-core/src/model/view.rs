//! A JSON value read the same way whether it is parsed (`&Value`) or still text (the
//! tape `read::json::fast` records as it scans an instruction, or a kept instruction's
//! canonical text, [`Text`], which printing reads).
//!
//! The reader checks a few keys of every instruction and records the names it uses.
//! Most instructions are never parsed into a map (`read::json::fast` reads them as
//! text), so those facts are written once, against [`JsonView`], and asked of either
//! form: what an instruction uses (`uses::each_ref`), what its `sync_info` must be
//! (`read::json::checks::sync_problems`), whether it updates another core
//! ([`remote_update`]). One definition, so the two reading paths cannot disagree.
//!
//! A [`Cursor`] reads canonical text forward once, for a caller that reads nested
//! values of every instruction (the sync check's `sync_info` entries and
//! `dependencies`): a [`Text`] view finds a value's end before its caller looks inside.

use serde_json::Value;

/// The JSON type of a value, as the reader's checks tell them apart.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum JsonType {
    Null,
    Bool,
    Number,
    String,
    Array,
    Object,
}

/// Read access to one JSON value.
pub(crate) trait JsonView<'a>: Copy {
    /// Its type.
    fn json_type(self) -> JsonType;
    /// Its string, when it is one.
    fn as_str(self) -> Option<&'a str>;
    /// Its value, when it is a non-negative integer that fits 64 bits.
    fn as_u64(self) -> Option<u64>;
    /// Its value, when it is an integer that fits a signed 64 bits.
    fn as_i64(self) -> Option<i64>;
    /// The member `key`, when this is an object that has it (the last one, when the
    /// text repeats it, as a map keeps it).
    fn get(self, key: &str) -> Option<Self>;
    /// Calls `each` with every element, when this is an array.
    fn for_each_element(self, each: &mut dyn FnMut(Self));
    /// Calls `each` with every member (its key and value), in order, when this is an
    /// object (a key the text repeats is met twice: the last one is the map's).
    fn for_each_member(self, each: &mut dyn FnMut(&'a str, Self));
    /// Its compact JSON text (`serde_json`'s printing).
    fn compact_text(self) -> std::borrow::Cow<'a, str>;
}

impl<'a> JsonView<'a> for &'a Value {
    fn json_type(self) -> JsonType {
        match self {
            Value::Null => JsonType::Null,
            Value::Bool(_) => JsonType::Bool,
            Value::Number(_) => JsonType::Number,
            Value::String(_) => JsonType::String,
            Value::Array(_) => JsonType::Array,
            Value::Object(_) => JsonType::Object,
        }
    }

    fn as_str(self) -> Option<&'a str> {
        Value::as_str(self)
    }

    fn as_u64(self) -> Option<u64> {
        Value::as_u64(self)
    }

    fn as_i64(self) -> Option<i64> {
        Value::as_i64(self)
    }

    fn get(self, key: &str) -> Option<Self> {
        self.as_object()?.get(key)
    }

    fn for_each_element(self, each: &mut dyn FnMut(Self)) {
        if let Value::Array(items) = self {
            items.iter().for_each(each);
        }
    }

    fn for_each_member(self, each: &mut dyn FnMut(&'a str, Self)) {
        if let Value::Object(map) = self {
            map.iter().for_each(|(k, v)| each(k, v));
        }
    }

    fn compact_text(self) -> std::borrow::Cow<'a, str> {
        std::borrow::Cow::Owned(self.to_string())
    }
}

/// One JSON value as its canonical compact text (what a kept instruction holds: valid
/// JSON as `serde_json` prints it, no whitespace, no key twice), read by scanning the
/// text without building a map (what printing or counting a kept instruction needs). A
/// string with an escape has no borrowed reading: `as_str` answers `None` for it, and
/// the caller parses instead. Every method stays within the text and never panics.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Text<'a>(pub &'a str);

impl<'a> Text<'a> {
    /// The members of an object, in text order: `(key, value)`.
    pub(crate) fn members(self) -> Members<'a> {
        let bytes = self.0.as_bytes();
        let at = if bytes.first() == Some(&b'{') && bytes.get(1) != Some(&b'}') { 1 } else { bytes.len() };
        Members { text: self.0, at }
    }

    /// The elements of an array, in order.
    fn elements(self) -> Elements<'a> {
        let bytes = self.0.as_bytes();
        let at = if bytes.first() == Some(&b'[') && bytes.get(1) != Some(&b']') { 1 } else { bytes.len() };
        Elements { text: self.0, at }
    }
}

/// The end of the value that starts at `at` (the index after its last byte).
pub(crate) fn value_end(bytes: &[u8], at: usize) -> Option<usize> {
    match *bytes.get(at)? {
        b'"' => string_end(bytes, at),
        b'{' | b'[' => {
            let mut depth = 0usize;
            let mut i = at;
            while let Some(&b) = bytes.get(i) {
                match b {
                    b'{' | b'[' => depth += 1,
                    b'}' | b']' => {
                        depth = depth.checked_sub(1)?;
                        if depth == 0 {
                            return Some(i + 1);
                        }
                    }
                    b'"' => i = string_end(bytes, i)? - 1,
                    _ => {}
                }
                i += 1;
            }
            None
        }
        _ => {
            let len = bytes[at..].iter().position(|b| matches!(b, b',' | b']' | b'}')).unwrap_or(bytes.len() - at);
            Some(at + len)
        }
    }
}

/// How many bytes of a string [`string_end`] looks at one by one before it searches.
const SHORT_STRING: usize = 24;

/// The end of the string whose opening quote is at `at` (past its closing quote): an
/// escaped character, `\"` among them, is stepped over.
fn string_end(bytes: &[u8], at: usize) -> Option<usize> {
    let mut i = at + 1;
    loop {
        i = quote_or_backslash(bytes, i)?;
        if bytes[i] == b'"' {
            return Some(i + 1);
        }
        i += 2;
    }
}

/// Where the first `"` or `\` at or after `from` is. Most strings read here are keys
/// and short names: a plain loop over their first bytes ends them sooner than a vector
/// search is set up.
fn quote_or_backslash(bytes: &[u8], from: usize) -> Option<usize> {
    let short = bytes.len().min(from + SHORT_STRING);
    let mut i = from;
    while i < short {
        if matches!(bytes[i], b'"' | b'\\') {
            return Some(i);
        }
        i += 1;
    }
    Some(i + memchr::memchr2(b'"', b'\\', bytes.get(i..)?)?)
}

/// A place in canonical compact text, read forward once: an object's members and an
/// array's elements are handed to the caller as the cursor comes to them, so that a
/// nested value is looked at once, where [`Text`]'s members find each value's end
/// before the caller looks inside it (the sync check reads every instruction's
/// `sync_info` so). A string with an escape, or text that is not a value of the shape
/// asked for, ends the read with `None`: the caller reads that value another way.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Cursor<'a> {
    text: &'a str,
    at: usize,
}

impl<'a> Cursor<'a> {
    /// At byte `at` of `text`, where a value starts.
    pub(crate) fn new(text: &'a str, at: usize) -> Cursor<'a> {
        Cursor { text, at }
    }

    /// The byte the cursor is at.
    pub(crate) fn peek(&self) -> Option<u8> {
        self.text.as_bytes().get(self.at).copied()
    }

    /// The object that starts here: `each` gets every key with the cursor at its value,
    /// and steps over the value; then the cursor is past the object.
    pub(crate) fn object(&mut self, mut each: impl FnMut(&mut Self, &'a str) -> Option<()>) -> Option<()> {
        self.step_over(b'{')?;
        if self.step_over(b'}').is_some() {
            return Some(());
        }
        loop {
            let key = self.string()?;
            self.step_over(b':')?;
            each(self, key)?;
            if self.step_over(b',').is_none() {
                return self.step_over(b'}');
            }
        }
    }

    /// The array that starts here: `each` gets the cursor at every element, and steps
    /// over it; then the cursor is past the array.
    pub(crate) fn array(&mut self, mut each: impl FnMut(&mut Self) -> Option<()>) -> Option<()> {
        self.step_over(b'[')?;
        if self.step_over(b']').is_some() {
            return Some(());
        }
        loop {
            each(self)?;
            if self.step_over(b',').is_none() {
                return self.step_over(b']');
            }
        }
    }

    /// The string that starts here, without its quotes (`None`: not a string, or one
    /// with an escape).
    pub(crate) fn string(&mut self) -> Option<&'a str> {
        let bytes = self.text.as_bytes();
        if bytes.get(self.at) != Some(&b'"') {
            return None;
        }
        let start = self.at + 1;
        let i = quote_or_backslash(bytes, start)?;
        if bytes[i] != b'"' {
            return None;
        }
        self.at = i + 1;
        self.text.get(start..i)
    }

    /// The value that starts here, stepped over: its text (`None` when it holds an
    /// escape).
    pub(crate) fn value(&mut self) -> Option<Text<'a>> {
        let start = self.at;
        if self.peek() == Some(b'"') {
            self.string()?;
        } else {
            let end = value_end(self.text.as_bytes(), start)?;
            if self.text.get(start..end)?.contains('\\') {
                return None;
            }
            self.at = end;
        }
        Some(Text(self.text.get(start..self.at)?))
    }

    /// Steps over `byte` when the cursor is at it.
    fn step_over(&mut self, byte: u8) -> Option<()> {
        (self.peek()? == byte).then(|| self.at += 1)
    }
}

pub(crate) struct Members<'a> {
    text: &'a str,
    at: usize,
}

impl<'a> Iterator for Members<'a> {
    type Item = (&'a str, Text<'a>);

    fn next(&mut self) -> Option<Self::Item> {
        let bytes = self.text.as_bytes();
        let key_end = value_end(bytes, self.at)?;
        let key = self.text.get(self.at + 1..key_end - 1)?;
        let value_start = key_end + 1;
        let value_end = value_end(bytes, value_start)?;
        let value = Text(self.text.get(value_start..value_end)?);
        // `,` goes on to the next member, `}` ends the object.
        self.at = if bytes.get(value_end) == Some(&b',') { value_end + 1 } else { bytes.len() };
        Some((key, value))
    }
}

struct Elements<'a> {
    text: &'a str,
    at: usize,
}

impl<'a> Iterator for Elements<'a> {
    type Item = Text<'a>;

    fn next(&mut self) -> Option<Self::Item> {
        let bytes = self.text.as_bytes();
        let end = value_end(bytes, self.at)?;
        let element = Text(self.text.get(self.at..end)?);
        self.at = if bytes.get(end) == Some(&b',') { end + 1 } else { bytes.len() };
        Some(element)
    }
}

impl<'a> JsonView<'a> for Text<'a> {
    fn json_type(self) -> JsonType {
        match self.0.as_bytes().first() {
            Some(b'{') => JsonType::Object,
            Some(b'[') => JsonType::Array,
            Some(b'"') => JsonType::String,
            Some(b't' | b'f') => JsonType::Bool,
            Some(b'n') => JsonType::Null,
            _ => JsonType::Number,
        }
    }

    fn as_str(self) -> Option<&'a str> {
        let inner = self.0.strip_prefix('"')?.strip_suffix('"')?;
        (!inner.contains('\\')).then_some(inner)
    }

    fn as_u64(self) -> Option<u64> {
        // A non-negative integer: digits only (`-`, `.` and exponents are not).
        if self.0.is_empty() || !self.0.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        self.0.parse().ok()
    }

    fn as_i64(self) -> Option<i64> {
        integer_i64(self.0)
    }

    fn get(self, key: &str) -> Option<Self> {
        // Canonical text says no key twice: the first is the one.
        self.members().find(|(k, _)| *k == key).map(|(_, value)| value)
    }

    fn for_each_element(self, each: &mut dyn FnMut(Self)) {
        self.elements().for_each(each);
    }

    fn for_each_member(self, each: &mut dyn FnMut(&'a str, Self)) {
        self.members().for_each(|(k, v)| each(k, v));
    }

    fn compact_text(self) -> std::borrow::Cow<'a, str> {
        std::borrow::Cow::Borrowed(self.0)
    }
}

/// An integer's text as a signed 64-bit value: an optional `-`, then digits only
/// (`.` and exponents are not integers, as `serde_json` reads them).
pub(crate) fn integer_i64(text: &str) -> Option<i64> {
    let digits = text.strip_prefix('-').unwrap_or(text);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    text.parse().ok()
}

/// A value of an instruction read either way: parsed, or its canonical text.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Json<'a> {
    /// Parsed.
    Value(&'a Value),
    /// Canonical compact text.
    Text(Text<'a>),
}

impl Json<'_> {
    /// The value itself (the text parsed: for what a report shows as it was read).
    pub(crate) fn to_value(self) -> Value {
        match self {
            Json::Value(value) => value.clone(),
            Json::Text(text) => serde_json::from_str(text.0).unwrap_or(Value::Null),
        }
    }
}

impl<'a> JsonView<'a> for Json<'a> {
    fn json_type(self) -> JsonType {
        match self {
            Json::Value(v) => v.json_type(),
            Json::Text(t) => t.json_type(),
        }
    }

    fn as_str(self) -> Option<&'a str> {
        match self {
            Json::Value(v) => JsonView::as_str(v),
            Json::Text(t) => t.as_str(),
        }
    }

    fn as_u64(self) -> Option<u64> {
        match self {
            Json::Value(v) => JsonView::as_u64(v),
            Json::Text(t) => t.as_u64(),
        }
    }

    fn as_i64(self) -> Option<i64> {
        match self {
            Json::Value(v) => JsonView::as_i64(v),
            Json::Text(t) => t.as_i64(),
        }
    }

    fn get(self, key: &str) -> Option<Self> {
        match self {
            Json::Value(v) => JsonView::get(v, key).map(Json::Value),
            Json::Text(t) => t.get(key).map(Json::Text),
        }
    }

    fn for_each_element(self, each: &mut dyn FnMut(Self)) {
        match self {
            Json::Value(v) => v.for_each_element(&mut |e| each(Json::Value(e))),
            Json::Text(t) => t.for_each_element(&mut |e| each(Json::Text(e))),
        }
    }

    fn for_each_member(self, each: &mut dyn FnMut(&'a str, Self)) {
        match self {
            Json::Value(v) => v.for_each_member(&mut |k, e| each(k, Json::Value(e))),
            Json::Text(t) => t.for_each_member(&mut |k, e| each(k, Json::Text(e))),
        }
    }

    fn compact_text(self) -> std::borrow::Cow<'a, str> {
        match self {
            Json::Value(v) => v.compact_text(),
            Json::Text(t) => t.compact_text(),
        }
    }
}

/// Whether some `on_update` entry of an instruction's `sync_info` has a `target_core`.
pub(crate) fn remote_update<'a, V: JsonView<'a>>(sync_info: Option<V>) -> bool {
    let Some(on_update) = sync_info.and_then(|sync| sync.get("on_update")) else { return false };
    let mut remote = false;
    on_update.for_each_element(&mut |entry| remote |= entry.get("target_core").is_some());
    remote
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;

    /// Every question asked of a value's canonical text (what a kept instruction holds)
    /// and of the value gets the same answer.
    fn same(text: &str) {
        let value: Value = serde_json::from_str(text).unwrap();
        let canonical = value.to_string();
        let view = Text(&canonical);
        assert_eq!(view.json_type(), (&value).json_type(), "{text}");
        assert_eq!(view.as_str(), value.as_str(), "{text}");
        assert_eq!(view.as_u64(), value.as_u64(), "{text}");
        assert_eq!(view.as_i64(), value.as_i64(), "{text}");
        for key in ["a", "b", "memref", ""] {
            assert_eq!(view.get(key).map(|v| serde_json::from_str::<Value>(v.0).unwrap()), value.get(key).cloned());
        }
        let mut texts = Vec::new();
        view.for_each_element(&mut |v| texts.push(serde_json::from_str::<Value>(v.0).unwrap()));
        let mut values = Vec::new();
        (&value).for_each_element(&mut |v| values.push(v.clone()));
        assert_eq!(texts, values, "{text}");
        assert_eq!(view.compact_text(), value.to_string(), "{text}");
    }

    #[test]
    fn text_and_value_agree() {
        for text in [
            r#"{"a":1,"b":[1,{"c":"]}"}]}"#,
            r#"[[],{},"x",1,-1,1.5,true,null,{"memref":"m"}]"#,
            r#"{}"#,
            r#"[]"#,
            r#""s""#,
            "18446744073709551615",
            "18446744073709551616",
            "-0.0",
            "0",
            "-5",
            "-0",
            "-9223372036854775808",
            "-9223372036854775809",
            "9223372036854775807",
            "9223372036854775808",
            r#"{"":[{"a":{"b":"}"}}]}"#,
            r#"{"a":"x\"}","b":["\\",{"c":"\"]"}],"memref":"\u00e9"}"#,
        ] {
            same(text);
        }
    }
    /// What a cursor reads in one pass is what the value is; it stops (`None`) at an
    /// escape, or where the text is not the shape asked for.
    #[test]
    fn a_cursor_reads_nested_values_once_and_stops_at_an_escape() {
        let text = r#"{"on_update":[{"id":3,"mode":"sem-inc"}],"on_wait":[{"from":{"a":[1]},"id":4,"wait_value":-2}],"x":"yyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyy"}"#;
        let mut read = Vec::new();
        let mut cursor = Cursor::new(text, 0);
        let done = cursor.object(|cursor, key| match key {
            "on_update" | "on_wait" => cursor.array(|entry| {
                entry.object(|entry, key| {
                    let value = entry.value()?;
                    read.push(format!("{key}={}", value.0));
                    Some(())
                })
            }),
            _ => cursor.string().map(|s| read.push(format!("{key}:{}", s.len()))),
        });
        assert_eq!(done, Some(()));
        assert_eq!(cursor.peek(), None, "past the object");
        assert_eq!(read, ["id=3", "mode=\"sem-inc\"", r#"from={"a":[1]}"#, "id=4", "wait_value=-2", "x:32"]);
        // Empty ones, and a value of each kind stepped over.
        for (text, end) in [("{}", 2), ("[]", 2), (r#"[1,"a",{},[],null]"#, 18), ("{},", 2)] {
            let mut cursor = Cursor::new(text, 0);
            let stepped = if text.starts_with('{') {
                cursor.object(|c, _| c.value().map(drop))
            } else {
                cursor.array(|c| c.value().map(drop))
            };
            assert_eq!((stepped, cursor.at), (Some(()), end), "{text}");
        }
        // An escape in a key, a string, or a value stepped over; a short or long string.
        for text in [
            r#"{"a\"b":1}"#,
            r#"{"a":"\n"}"#,
            r#"{"a":{"b":"\""}}"#,
            r#"{"a":"yyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyy\u0041"}"#,
        ] {
            assert_eq!(Cursor::new(text, 0).object(|c, _| c.value().map(drop)), None, "{text}");
        }
        // Not the shape asked for, or cut short.
        for text in ["[1]", r#"{"a":1"#, r#"{"a" 1}"#, r#"{"a":1,}"#, r#"{"a":"b"#, ""] {
            assert_eq!(Cursor::new(text, 0).object(|c, _| c.value().map(drop)), None, "{text}");
        }
        assert_eq!(Cursor::new("[1,2", 0).array(|c| c.value().map(drop)), None);
    }
    /// The value a cursor's one pass reads back, every member and element as it comes.
    fn read_back(cursor: &mut Cursor<'_>) -> Option<Value> {
        match cursor.peek()? {
            b'{' => {
                let mut map = serde_json::Map::new();
                cursor.object(|cursor, key| {
                    let value = read_back(cursor)?;
                    map.insert(key.to_owned(), value);
                    Some(())
                })?;
                Some(Value::Object(map))
            }
            b'[' => {
                let mut list = Vec::new();
                cursor.array(|cursor| {
                    list.push(read_back(cursor)?);
                    Some(())
                })?;
                Some(Value::Array(list))
            }
            b'"' => cursor.string().map(|s| Value::String(s.to_owned())),
            _ => serde_json::from_str(cursor.value()?.0).ok(),
        }
    }

    fn any_value() -> impl Strategy<Value = Value> {
        let leaf = prop_oneof![
            1 => Just(Value::Null),
            1 => any::<bool>().prop_map(Value::Bool),
            1 => any::<i64>().prop_map(Value::from),
            1 => any::<u64>().prop_map(Value::from),
            // Eighths: exact in binary and in short text, so parsing them back is exact.
            1 => (-8000i32..8000).prop_map(|n| Value::from(f64::from(n) / 8.0)),
            // Mostly without an escape (most texts read back whole), some with one.
            4 => "[a-z{}\\[\\],:é ]{0,40}".prop_map(Value::String),
            1 => "[a-z\\\\\"{}]{0,40}".prop_map(Value::String),
        ];
        leaf.prop_recursive(4, 48, 6, |inner| {
            prop_oneof![
                proptest::collection::vec(inner.clone(), 0..6).prop_map(Value::Array),
                proptest::collection::btree_map("[a-z_]{0,12}", inner, 0..6)
                    .prop_map(|m| Value::Object(m.into_iter().collect())),
            ]
        })
    }

    proptest! {
        /// Over any value's canonical text, a cursor reads the value back in one pass,
        /// ending where the text ends; where the text has an escape it may stop
        /// instead, never read another value.
        #[test]
        fn a_cursor_reads_back_any_value_or_stops_at_an_escape(value in any_value()) {
            let text = value.to_string();
            let mut cursor = Cursor::new(&text, 0);
            let read = read_back(&mut cursor);
            if text.contains('\\') {
                prop_assert!(read.is_none() || read.as_ref() == Some(&value), "{text}");
            } else {
                prop_assert_eq!(read.as_ref(), Some(&value), "{}", text);
                prop_assert_eq!(cursor.peek(), None);
            }
        }
    }
}
