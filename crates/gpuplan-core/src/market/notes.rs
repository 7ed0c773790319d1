//! The words an imported offer carries: its region range, its price range
//! and user text made safe to quote in a message.

use std::borrow::Cow;

use crate::money::num;

/// SkyPilot's cloud names as the providers write their own.
const PROVIDERS: &[(&str, &str)] = &[
    ("aws", "AWS"),
    ("gcp", "GCP"),
    ("azure", "Azure"),
    ("oci", "OCI"),
    ("lambda", "Lambda"),
    ("runpod", "RunPod"),
    ("nebius", "Nebius"),
    ("vast", "Vast.ai"),
    ("cudo", "Cudo Compute"),
    ("do", "DigitalOcean"),
    ("ibm", "IBM Cloud"),
    ("ovhcloud", "OVHcloud"),
    ("paperspace", "Paperspace"),
    ("scaleway", "Scaleway"),
    ("daytona", "Daytona"),
    ("fluidstack", "Fluidstack"),
    ("hyperbolic", "Hyperbolic"),
    ("hyperstack", "Hyperstack"),
    ("jarvislabs", "JarvisLabs"),
    ("lium", "Lium"),
    ("mithril", "Mithril"),
    ("primeintellect", "Prime Intellect"),
    ("seeweb", "Seeweb"),
    ("shadeform", "Shadeform"),
    ("simplepod", "SimplePod"),
    ("spheron", "Spheron"),
    ("verda", "Verda"),
    ("yotta", "Yotta"),
];

/// A provider's display name: the known spelling of a SkyPilot cloud name,
/// else the sheet's text.
pub fn provider(name: &str) -> &str {
    PROVIDERS.iter().find(|(cloud, _)| cloud.eq_ignore_ascii_case(name)).map_or(name, |(_, shown)| shown)
}

/// The provider's note, after the on-demand range across regions if there
/// is one (shared, not copied, where there is none: a big sheet's rows).
pub fn range(min: Option<f64>, max: Option<f64>, note: &'static str) -> Cow<'static, str> {
    match (min, max) {
        (Some(lo), Some(hi)) if hi > lo => {
            Cow::Owned(format!("On-demand {}-{}/h across regions. {note}", num(lo), num(hi)))
        }
        _ => Cow::Borrowed(note),
    }
}

/// At most 60 characters of `text`, control characters shown as '?'.
pub fn printable(text: &str) -> String {
    text.chars().take(60).map(|c| if c.is_control() { '?' } else { c }).collect()
}
