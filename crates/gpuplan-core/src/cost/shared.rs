//! The texts an offer's options carry, held once: a whole market's options
//! repeat a few providers, regions, GPU ids, sources and dates, and each
//! offer's id and name are its options' too.

use std::collections::BTreeMap;
use std::sync::Arc;

use crate::offers::Offer;

/// One shared copy of each distinct text it is handed. (Its index is a
/// map to places, a kind the comparison already has: another kind of map
/// would be more code in the page.)
#[derive(Default)]
pub struct Interner<'a> {
    at: BTreeMap<&'a str, usize>,
    texts: Vec<Arc<str>>,
}

impl<'a> Interner<'a> {
    pub fn get(&mut self, text: &'a str) -> Arc<str> {
        let at = *self.at.entry(text).or_insert(self.texts.len());
        match self.texts.get(at) {
            Some(shared) => shared.clone(),
            None => {
                let shared: Arc<str> = Arc::from(text);
                self.texts.push(shared.clone());
                shared
            }
        }
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
