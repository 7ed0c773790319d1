//! Enum values by their serde names ("qlora", "zero3"), for links and flags,
//! so each name is written once, in the `#[serde(rename_all)]` of its enum.

use serde::de::value::{Error, StrDeserializer};
use serde::de::IntoDeserializer;
use serde::ser::{self, Impossible, Serialize};
use serde::Deserialize;

/// The serde name of a unit variant, or None for anything else.
pub fn variant<T: Serialize>(value: &T) -> Option<&'static str> {
    value.serialize(VariantName).ok()
}

/// The unit variant with this serde name.
pub fn parse<'de, T: Deserialize<'de>>(name: &'de str) -> Option<T> {
    let de: StrDeserializer<'de, Error> = name.into_deserializer();
    T::deserialize(de).ok()
}

/// A serializer that answers only a unit variant's name.
struct VariantName;

fn not_unit() -> Error {
    <Error as ser::Error>::custom("not a unit variant")
}

/// Everything but `serialize_unit_variant` is refused.
macro_rules! refuse {
    ($($name:ident($($t:ty),*)),* $(,)?) => {
        $(fn $name(self, $(_: $t),*) -> Result<Self::Ok, Error> { Err(not_unit()) })*
    };
}

impl ser::Serializer for VariantName {
    type Ok = &'static str;
    type Error = Error;
    type SerializeSeq = Impossible<&'static str, Error>;
    type SerializeTuple = Impossible<&'static str, Error>;
    type SerializeTupleStruct = Impossible<&'static str, Error>;
    type SerializeTupleVariant = Impossible<&'static str, Error>;
    type SerializeMap = Impossible<&'static str, Error>;
    type SerializeStruct = Impossible<&'static str, Error>;
    type SerializeStructVariant = Impossible<&'static str, Error>;

    fn serialize_unit_variant(
        self,
        _: &'static str,
        _: u32,
        variant: &'static str,
    ) -> Result<Self::Ok, Error> {
        Ok(variant)
    }

    refuse!(
        serialize_bool(bool),
        serialize_i8(i8),
        serialize_i16(i16),
        serialize_i32(i32),
        serialize_i64(i64),
        serialize_u8(u8),
        serialize_u16(u16),
        serialize_u32(u32),
        serialize_u64(u64),
        serialize_f32(f32),
        serialize_f64(f64),
        serialize_char(char),
        serialize_str(&str),
        serialize_bytes(&[u8]),
        serialize_none(),
        serialize_unit(),
        serialize_unit_struct(&'static str),
    );

    fn serialize_some<T: ?Sized + Serialize>(self, _: &T) -> Result<Self::Ok, Error> {
        Err(not_unit())
    }
    fn serialize_newtype_struct<T: ?Sized + Serialize>(
        self,
        _: &'static str,
        _: &T,
    ) -> Result<Self::Ok, Error> {
        Err(not_unit())
    }
    fn serialize_newtype_variant<T: ?Sized + Serialize>(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: &T,
    ) -> Result<Self::Ok, Error> {
        Err(not_unit())
    }
    fn serialize_seq(self, _: Option<usize>) -> Result<Self::SerializeSeq, Error> {
        Err(not_unit())
    }
    fn serialize_tuple(self, _: usize) -> Result<Self::SerializeTuple, Error> {
        Err(not_unit())
    }
    fn serialize_tuple_struct(self, _: &'static str, _: usize) -> Result<Self::SerializeTupleStruct, Error> {
        Err(not_unit())
    }
    fn serialize_tuple_variant(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: usize,
    ) -> Result<Self::SerializeTupleVariant, Error> {
        Err(not_unit())
    }
    fn serialize_map(self, _: Option<usize>) -> Result<Self::SerializeMap, Error> {
        Err(not_unit())
    }
    fn serialize_struct(self, _: &'static str, _: usize) -> Result<Self::SerializeStruct, Error> {
        Err(not_unit())
    }
    fn serialize_struct_variant(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: usize,
    ) -> Result<Self::SerializeStructVariant, Error> {
        Err(not_unit())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::WeightFormat;
    use crate::plan::{Method, Optimizer, Shard};

    #[test]
    fn names_match_serde() {
        assert_eq!(variant(&Method::Qlora), Some("qlora"));
        assert_eq!(variant(&Optimizer::PagedAdamw8bit), Some("paged_adamw8bit"));
        assert_eq!(variant(&WeightFormat::GgufQ4KM), Some("gguf_q4_k_m"));
        assert_eq!(parse::<Shard>("zero3"), Some(Shard::Zero3));
        assert_eq!(parse::<Shard>("zero9"), None);
        assert_eq!(variant(&3u32), None);
    }
}
