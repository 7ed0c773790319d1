use super::*;
use crate::cost::Item;
use crate::money::Currency;
use crate::offers::{defaults, Band, Offer};

const SKY: &str = include_str!("../../data/market/cloud-offers.csv");
const CN: &str = include_str!("../../data/market/cn-offers.json");

fn sheet(text: &str) -> Import {
    import(text, &Defaults { provider: "mycloud", date: "2026-11", source: "test sheet" })
}

#[test]
fn the_shipped_market_loads_whole() {
    let m = shipped(SKY, CN);
    assert_eq!(m.notices, vec![], "the shipped data has no bad rows");
    let mut errs = Vec::new();
    for (i, o) in m.offers.iter().enumerate() {
        o.validate(&format!("market[{i}]"), &mut errs);
    }
    assert_eq!(errs, vec![]);
    let mut h100: Vec<&str> =
        m.offers.iter().filter(|o| o.gpu.starts_with("h100")).map(|o| o.provider.as_ref()).collect();
    h100.sort_unstable();
    h100.dedup();
    assert!(h100.len() >= 10, "{h100:?}");
    let cny: Vec<&Offer> = m.offers.iter().filter(|o| o.currency == Currency::Cny).collect();
    assert!(cny.len() >= 20 && cny.iter().all(|o| !o.source.is_empty()));
    let unmapped: Vec<&str> = m.unmapped.iter().map(|u| u.name.as_str()).collect();
    for name in ["A40", "L40", "V100", "GH200"] {
        assert!(unmapped.contains(&name), "{unmapped:?}");
    }
}

#[test]
fn shipped_rows_keep_their_facts() {
    let m = shipped(SKY, CN);
    let p4d = m.offers.iter().find(|o| o.id == "aws:p4d.24xlarge:us-east-2").expect("p4d row");
    assert_eq!((p4d.gpu.as_ref(), p4d.gpus), ("a100-40-sxm", 8));
    assert_eq!(p4d.od.as_ref().map(|od| (od.hourly, od.min_s)), Some((21.95764, 60)));
    assert_eq!((p4d.region.as_ref(), p4d.regions), ("us-east-2", 12));
    assert!(p4d.note.starts_with("On-demand 21.9576-30.4103/h across regions."), "{}", p4d.note);
    assert_eq!(p4d.date, SNAPSHOT_DATE);
    let tencent = m.offers.iter().find(|o| o.id == "tencent-gn7-2xlarge32").expect("tencent row");
    assert!(tencent.od.as_ref().is_some_and(|od| od.keeps_billing));
    assert_eq!(tencent.bandwidth.first(), Some(&Band { upto_mbps: Some(2.0), per_mbps_month: 20.0 }));
}

#[test]
fn skypilot_rows_by_header_with_zones_merged() {
    let text = "Region,AvailabilityZone,InstanceType,AcceleratorName,AcceleratorCount,vCPUs,MemoryGiB,Price,SpotPrice,Extra\n\
us-east-1,us-east-1a,p5.48xlarge,H100,8,192,2048,55.04,30.2,x\n\
us-east-1,us-east-1b,p5.48xlarge,H100,8,192,2048,55.04,28.5,x\n\
us-east-1,,m5.large,,,2,8,0.096,,x\n\
eu-west-1,,g9.xlarge,A40,1,4,16,1.2,,x\n";
    let m = sheet(text);
    assert_eq!(m.notices, vec![]);
    assert_eq!(m.offers.len(), 1, "zones merge, CPU rows and unmapped cards stay out");
    let o = &m.offers[0];
    assert_eq!(
        (o.provider.as_ref(), o.gpu.as_ref(), o.region.as_ref()),
        ("mycloud", "h100-sxm", "us-east-1")
    );
    assert_eq!(o.spot.as_ref().map(|s| s.hourly), Some(28.5));
    assert_eq!((o.date.as_ref(), o.source.as_ref()), ("2026-11", "test sheet"));
    assert_eq!(m.unmapped, vec![Unmapped { name: "A40".into(), rows: 1 }]);
}

#[test]
fn bad_rows_are_named_by_line_and_good_rows_load() {
    let text = "InstanceType,AcceleratorName,AcceleratorCount,Price,SpotPrice,Currency,provider\n\
ok1,H100,1,2.5,,USD,good\n\
neg,H100,1,-3,,USD,bad\n\
nan,H100,1,abc,,USD,bad\n\
frac,H100,0.5,1,,USD,bad\n\
eur,H100,1,1,,EUR,bad\n\
none,H100,1,,,USD,bad\n\
x,H100,1,1.5,,CNY,<script>alert(1)</script>\n\
\"open,H100,1,1";
    let m = sheet(text);
    let lines: Vec<usize> = m.notices.iter().map(|n| n.line).collect();
    assert_eq!(lines, [3, 4, 5, 6, 7, 8, 9], "{:?}", m.notices);
    assert!(m.notices.iter().any(|n| n.text() == "line 3: Price -3 is out of range (0 to 1000000000)"));
    assert!(m.notices.iter().any(|n| n.message.contains("\"EUR\" is not USD or CNY")));
    let script = m.offers.iter().find(|o| o.provider.contains("script")).expect("kept as text");
    assert_eq!((script.currency, script.provider.as_ref()), (Currency::Cny, "<script>alert(1)</script>"));
    assert!(m.notices.iter().any(|n| n.line == 8 && n.message.contains("kept as plain text")));
    assert_eq!(m.offers.len(), 2);
}

#[test]
fn an_open_quote_and_a_bad_header_are_named() {
    let m = sheet("InstanceType,AcceleratorName,AcceleratorCount,Price\n\"a,H100,1,1\n");
    assert_eq!(m.notices.len(), 1);
    assert_eq!(
        m.notices[0].text(),
        "line 2: a quoted field is never closed; the rest of the file is not read"
    );
    let m = sheet("name,price\nx,1\n");
    assert_eq!(
        m.notices[0].text(),
        "line 1: the header lacks InstanceType, AcceleratorName, AcceleratorCount"
    );
    assert!(sheet("").notices[0].message.contains("empty"));
}

#[test]
fn oversized_files_are_refused_without_reading() {
    let big = "x".repeat(MAX_BYTES + 1);
    let m = sheet(&big);
    assert_eq!(m.offers.len(), 0);
    assert_eq!(m.notices[0].line, 0);
    assert!(m.notices[0].message.contains("more than the 16 MB"), "{}", m.notices[0].message);
}

#[test]
fn json_offers_load_one_by_one_with_lines() {
    let text = r#"{
  "version": 1,
  "provider": "Vendor",
  "offers": [
    {"id": "a", "gpu": "h100-sxm", "gpus": 8, "od": {"hourly": 20}},
    {"id": "b", "currency": "EUR"},
    {"id": "c", "od": {"hourly": -1}},
    {"id": "", "name": "<b>x</b>", "host": true}
  ],
  "items": [{"name": "support", "amount": 99, "monthly": true}, {"amount": -5}]
}"#;
    let m = sheet(text);
    let lines: Vec<usize> = m.notices.iter().map(|n| n.line).collect();
    assert_eq!(lines, [6, 7, 8, 10], "{:?}", m.notices);
    assert!(m.notices[0].message.starts_with("offers[1]: unknown variant `EUR`"), "{}", m.notices[0].message);
    let ids: Vec<&str> = m.offers.iter().map(|o| o.id.as_ref()).collect();
    assert_eq!(ids, ["a", "import-2"]);
    assert!(m.offers.iter().all(|o| o.provider == "Vendor" && !o.host));
    assert_eq!(m.items.len(), 1);
    let m = sheet("{\"offers\": [1, 2,");
    assert_eq!(m.notices.len(), 1);
    assert!(m.notices[0].message.starts_with("not an offers file"));
}

#[test]
fn export_then_import_keeps_every_field() {
    let mut offers = defaults();
    offers.extend(shipped("", CN).offers);
    let items =
        vec![Item { name: "支持, \"gold\"".into(), amount: 12.5, currency: Currency::Cny, monthly: true }];
    let text = export(&offers, &items);
    let back = sheet(&text);
    assert_eq!(back.notices, vec![]);
    assert_eq!(back.offers, offers);
    assert_eq!(back.items, items);
}

#[test]
fn the_shipped_market_survives_json_as_the_page_reads_it() {
    // xtask writes the shipped offers as JSON for the page, which reads
    // them back with serde: every field must come back as it was.
    let offers = shipped(SKY, CN).offers;
    let json = serde_json::to_string(&offers).unwrap_or_default();
    let back: Vec<Offer> = serde_json::from_str(&json).unwrap_or_default();
    assert_eq!(back, offers);
}

#[test]
fn a_csv_export_reads_back_as_the_same_hourly_offers() {
    let mut offers = sheet(
        "InstanceType,AcceleratorName,AcceleratorCount,Price,SpotPrice,Region\n\
         p5.48xlarge,H100,8,98.32,40.1,us-east-1\n\
         \"g6, big\",L4,1,0.8,,eu-west-1\n",
    )
    .offers;
    offers.push(Offer { id: "monthly-only".into(), od: None, spot: None, ..defaults()[0].clone() });
    let (csv, left_out) = export_csv(&offers);
    assert_eq!(left_out, 1, "an offer with neither hourly price cannot be a SkyPilot row");
    let back = sheet(&csv);
    assert_eq!(back.notices, vec![], "{csv}");
    let hourly = |o: &Offer| {
        (o.provider.to_string(), o.name.to_string(), o.gpu.to_string(), o.gpus, o.region.to_string())
    };
    let prices = |o: &Offer| (o.od.as_ref().map(|p| p.hourly), o.spot.as_ref().map(|p| p.hourly), o.currency);
    assert_eq!(
        back.offers.iter().map(hourly).collect::<Vec<_>>(),
        offers[..2].iter().map(hourly).collect::<Vec<_>>()
    );
    assert_eq!(
        back.offers.iter().map(prices).collect::<Vec<_>>(),
        offers[..2].iter().map(prices).collect::<Vec<_>>()
    );
}
