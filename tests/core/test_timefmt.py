import pytest
from hypothesis import given, settings, strategies as st

from desktop.core.timefmt import TimeFormatError, format_ms, parse_time


@pytest.mark.parametrize("ms, text", [
    (0, "00:00.000"),
    (39876, "00:39.876"),
    (599_999, "09:59.999"),
    (3_599_999, "59:59.999"),
    (3_600_000, "1:00:00.000"),
    (3_723_500, "1:02:03.500"),
    (36_000_001, "10:00:00.001"),
])
def test_format_ms(ms, text):
    assert format_ms(ms) == text


@pytest.mark.parametrize("text, ms", [
    ("39.876", 39876),
    ("00:39.876", 39876),
    ("1:02:03", 3_723_000),
    ("1:02:03.5", 3_723_500),
    ("75s", 75_000),
    ("75 s", 75_000),
    ("1.5s", 1500),
    ("1500ms", 1500),
    ("2m", 120_000),
    ("  12  ", 12_000),
    ("75:00", 4_500_000),  # minutes may exceed 59 when no hour is given
    ("0.0005", 1),  # rounds to the nearest millisecond
    (".5", 500),
])
def test_parse_time(text, ms):
    assert parse_time(text) == ms


@pytest.mark.parametrize("junk", ["", "   ", "abc", "1:2:3:4", "1:60:00", "00:60.000", "-5",
                                  "5x", "1,5", "12.3ms", "::", "1:", ":30"])
def test_parse_time_rejects_junk_with_a_clear_message(junk):
    with pytest.raises(ValueError) as caught:
        parse_time(junk)
    assert isinstance(caught.value, TimeFormatError)
    assert "time" in str(caught.value)


def test_format_rejects_negative_and_non_integers():
    with pytest.raises(TimeFormatError, match="negative"):
        format_ms(-1)
    with pytest.raises(TimeFormatError, match="whole milliseconds"):
        format_ms(1.5)


@settings(database=None)
@given(st.integers(min_value=0, max_value=100 * 3_600_000))
def test_round_trip(ms):
    assert parse_time(format_ms(ms)) == ms
