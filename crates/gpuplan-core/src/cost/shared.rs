//! The texts an offer's options carry, held once: a whole market's options
//! repeat a few providers, regions, GPU ids, sources and dates, and each
//! offer's id and name are its options' too.

use std::collections::BTreeMap;
use std::sync::Arc;

use crate::offers::Offer;

/// One shared copy of each distinct text it is handed.
#[derive(Default)]
pub struct Interner<'a> {
    seen: BTreeMap<&'a str, Arc<str>>,
}

impl<'a> Interner<'a> {
    pub fn get(&mut self, text: &'a str) -> Arc<str> {
        self.seen.entry(text).or_insert_with(|| Arc::from(text)).clone()
    }
}

/// An offer's texts as each of its options holds them.
pub struct Texts {
    pub offer: Arc<str>,
    pub offer_name: Arc<str>,
    pub provider: Arc<str>,
    pub region: Arc<str>,
    pub gpu: Arc<str>,
    pub source: Arc<str>,
    pub date: Arc<str>,
}

impl Texts {
    pub fn new<'a>(offer: &'a Offer, seen: &mut Interner<'a>) -> Texts {
        Texts {
            offer: Arc::from(offer.id.as_ref()),
            offer_name: Arc::from(offer.name.as_ref()),
            provider: seen.get(&offer.provider),
            region: seen.get(&offer.region),
            gpu: seen.get(&offer.gpu),
            source: seen.get(&offer.source),
            date: seen.get(&offer.date),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn equal_texts_share_one_copy() {
        let offers = [Offer::default(), Offer { id: "other".into(), ..Offer::default() }];
        let mut seen = Interner::default();
        let [a, b] = offers.each_ref().map(|o| Texts::new(o, &mut seen));
        assert!(Arc::ptr_eq(&a.gpu, &b.gpu) && Arc::ptr_eq(&a.provider, &b.provider));
        assert_eq!((&*a.offer, &*b.offer), ("custom", "other"));
    }
}
