from desktop.core.words import file_name, plural


def test_plurals_and_export_names():
    assert (plural(1, "line"), plural(3, "moment"), plural(0, "item")) == ("1 line", "3 moments", "0 items")
    assert plural(2, "reply", "replies") == "2 replies"
    assert file_name("Discovery - Acme Logistics (demo)", "2026-11-20T15:00:00Z", ".callmark.json") == \
        "discovery-acme-logistics-demo-2026-11-20.callmark.json"
    assert file_name("Renewal – Société Générale", None, ".vtt") == "renewal-societe-generale.vtt"
    assert file_name("///", "", "-packet.html") == "call-packet.html"
