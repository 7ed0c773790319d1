//! The two languages the product speaks. Text that the core generates
//! (error messages, checklist items) comes in both, unless the build is for
//! one language only (features `zh` and `en`: the page loads one bundle per
//! language); then every text is written in that language and the
//! other's strings never reach the binary.

use serde::{Deserialize, Serialize};

#[cfg(all(feature = "zh", feature = "en"))]
compile_error!("features `zh` and `en` each build for one language only; enable at most one");

/// The one language of a single-language build; None where both are carried.
pub const ONLY: Option<Lang> = if cfg!(feature = "zh") {
    Some(Lang::Zh)
} else if cfg!(feature = "en") {
    Some(Lang::En)
} else {
    None
};

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum Lang {
    #[default]
    #[serde(rename = "zh")]
    Zh,
    #[serde(rename = "en")]
    En,
}

impl Lang {
    /// Picks the language for a browser language tag such as "zh-CN" or "en-US".
    pub fn from_tag(tag: &str) -> Lang {
        if tag.trim().to_ascii_lowercase().starts_with("zh") {
            Lang::Zh
        } else {
            Lang::En
        }
    }

    pub fn code(self) -> &'static str {
        match self {
            Lang::Zh => "zh",
            Lang::En => "en",
        }
    }

    /// The language this build writes `self` in: `self`, or the one
    /// language a single-language build carries. Every choice of text goes
    /// through here, so the other language's text is dead code there.
    #[inline(always)]
    pub const fn written(self) -> Lang {
        match ONLY {
            Some(only) => only,
            None => self,
        }
    }

    /// Whether this build carries text in `self`.
    #[inline(always)]
    pub const fn carried(self) -> bool {
        matches!((self.written(), self), (Lang::Zh, Lang::Zh) | (Lang::En, Lang::En))
    }

    /// `text` where this build carries `self`, else "": for tables that hold
    /// each language's text in a field of its own.
    pub const fn kept(self, text: &'static str) -> &'static str {
        if self.carried() {
            text
        } else {
            ""
        }
    }

    /// One of two texts.
    #[inline(always)]
    pub fn pick<'a>(self, zh: &'a str, en: &'a str) -> &'a str {
        match self.written() {
            Lang::Zh => zh,
            Lang::En => en,
        }
    }
}

/// One text in both languages, written side by side (checklist rules, fit
/// flags, memory notes). Built with [`bi!`].
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Bi {
    pub zh: String,
    pub en: String,
}

impl Bi {
    pub fn pick(&self, lang: Lang) -> &str {
        lang.pick(&self.zh, &self.en)
    }
}

/// A [`Bi`] from its two texts. In a single-language build the other
/// language's expression is never evaluated, so its text and formatting
/// never reach the binary (`Lang::carried` is a constant).
macro_rules! bi {
    ($zh:expr, $en:expr $(,)?) => {
        $crate::lang::Bi {
            zh: if $crate::lang::Lang::Zh.carried() { String::from($zh) } else { String::new() },
            en: if $crate::lang::Lang::En.carried() { String::from($en) } else { String::new() },
        }
    };
}
pub(crate) use bi;
