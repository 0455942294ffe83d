"""Lines as they appear in call transcripts, labelled with the personal data in them.

Half carry emails, phone numbers or card numbers in the shapes people say them
and Whisper writes them; half are tricky numbers that are not personal data
(prices, amounts, dates, quarters, order counts, versions, times, years, zip
codes: addresses are out of scope, so a zip code is left alone).

`corpus_figures()` measures recall and precision per PII item: a redaction is
right when its kind matches and it covers exactly the labelled text (give or
take surrounding punctuation).
"""

from __future__ import annotations

from dataclasses import dataclass

from desktop.exchange.redact import PiiKind, redact

E, P, C = PiiKind.EMAIL, PiiKind.PHONE, PiiKind.CARD


@dataclass(frozen=True)
class Line:
    text: str
    pii: tuple[tuple[PiiKind, str], ...] = ()

    @property
    def expected_text(self) -> str:
        out = self.text
        for kind, original in self.pii:
            out = out.replace(original, kind.placeholder, 1)
        return out


WITH_PII = [
    Line("Sure, my email is casey.customer@acme.com if you want to send it.", ((E, "casey.customer@acme.com"),)),
    Line("Send it to Casey_Customer+deals@acme-corp.co.uk and copy finance.", ((E, "Casey_Customer+deals@acme-corp.co.uk"),)),
    Line("It's dana at example dot com, all lower case.", ((E, "dana at example dot com"),)),
    Line("You can reach Jordan at jordan dot lee at globex dot io.", ((E, "jordan dot lee at globex dot io"),)),
    Line("Email riley@initech.com or just call me.", ((E, "riley@initech.com"),)),
    Line("My direct line is 415-555-1212.", ((P, "415-555-1212"),)),
    Line("Call me on (415) 555-0199 after four.", ((P, "(415) 555-0199"),)),
    Line("The office number is 415.555.0123, ask for Priya.", ((P, "415.555.0123"),)),
    Line("Text me at 415 555 0188 when you land.", ((P, "415 555 0188"),)),
    Line("You can try 4155550177 too.", ((P, "4155550177"),)),
    Line("From the UK it's +44 20 7946 0958.", ((P, "+44 20 7946 0958"),)),
    Line("Our main line is +1 415 555 0100, extension two.", ((P, "+1 415 555 0100"),)),
    Line("Just dial 555-0142 from inside the building.", ((P, "555-0142"),)),
    Line("The London office is 020 7946 0321.", ((P, "020 7946 0321"),)),
    Line("It's four one five, five five five, one two one two.", ((P, "four one five, five five five, one two one two"),)),
    Line("Yeah, my cell is six five oh, five five five, oh one nine eight.", ((P, "six five oh, five five five, oh one nine eight"),)),
    Line("Call two one two, double five five, three four five six.", ((P, "two one two, double five five, three four five six"),)),
    Line("The number is four one five five five five zero one nine nine.", ((P, "four one five five five five zero one nine nine"),)),
    Line("Try one eight hundred, five five five, oh one three nine.", ((P, "one eight hundred, five five five, oh one three nine"),)),
    Line("It's five five five, twelve twelve.", ((P, "five five five, twelve twelve"),)),
    Line("My mobile is plus four four, seven seven double oh, nine double oh, one two three.", ((P, "plus four four, seven seven double oh, nine double oh, one two three"),)),
    Line("Reach me at 415-555-0111 or casey@acme.com, whichever is easier.", ((P, "415-555-0111"), (E, "casey@acme.com"))),
    Line("The card is 4111 1111 1111 1111, expiry next May.", ((C, "4111 1111 1111 1111"),)),
    Line("Use the corporate card, 5500-0000-0000-0004.", ((C, "5500-0000-0000-0004"),)),
    Line("I'll read it out: 4012888888881881.", ((C, "4012888888881881"),)),
    Line("The Amex is 3782 822463 10005.", ((C, "3782 822463 10005"),)),
    Line("It's four one one one, one one one one, one one one one, one one one one.", ((C, "four one one one, one one one one, one one one one, one one one one"),)),
    Line("Card number five five oh oh, oh oh oh oh, oh oh oh oh, oh oh oh four.", ((C, "five five oh oh, oh oh oh oh, oh oh oh oh, oh oh oh four"),)),
    Line("Charge 6011 1111 1111 1117 and send the receipt to ap@globex.com.", ((C, "6011 1111 1111 1117"), (E, "ap@globex.com"))),
    Line("OK so that's 415 555 0166, and my assistant is 415 555 0167.", ((P, "415 555 0166"), (P, "415 555 0167"))),
    Line("Write down nine one seven, five five five, oh one two three, that's my cell.", ((P, "nine one seven, five five five, oh one two three"),)),
    Line("Her number's 1-415-555-0145 and she's expecting you.", ((P, "1-415-555-0145"),)),
    Line("Yeah, it's 312 555 0190 in Chicago.", ((P, "312 555 0190"),)),
    # Written after the rules were, as a check on them (see HELD_OUT below).
    Line("You can email me at p.nguyen@contoso.com.", ((E, "p.nguyen@contoso.com"),)),
    Line("My number is 646-555-0134, that's a New York number.", ((P, "646-555-0134"),)),
    Line("Call the front desk at (212) 555 0177.", ((P, "(212) 555 0177"),)),
    Line("It's seven one eight, five five five, oh oh four two.", ((P, "seven one eight, five five five, oh oh four two"),)),
    Line("Her email is maria dot garcia at fabrikam dot com.", ((E, "maria dot garcia at fabrikam dot com"),)),
    Line("Card ending, um, the full number is 4242 4242 4242 4242.", ((C, "4242 4242 4242 4242"),)),
    Line("Dial +49 30 901820 for the Berlin team.", ((P, "+49 30 901820"),)),
    Line("Reach out on 0161 496 0000 in Manchester.", ((P, "0161 496 0000"),)),
    Line("It's eight hundred, five five five, two three four five.", ((P, "eight hundred, five five five, two three four five"),)),
]

WITHOUT_PII = [
    Line("The platform tier is $12,500 a year per team."),
    Line("We're looking at $1,250,000 over three years."),
    Line("Can we do the review on 12/14/2026?"),
    Line("The pilot runs from 2026-12-01 to 2026-12-14."),
    Line("Our budget is locked until Q3 2026."),
    Line("We shipped 4,200 units last quarter and 5,100 this one."),
    Line("We're still on version 2.4.1 of the connector."),
    Line("Renewal went up 15% and churn fell to 3.5%."),
    Line("Let's meet at 3:30 on Thursday."),
    Line("Back in 2019 we had 250 reps; now it's 1,400."),
    Line("The warehouse zip code is 94105."),
    Line("Ticket 48213 is the one about the export."),
    Line("We have about twenty five people on the team."),
    Line("Maybe one or two of them will join, three at most."),
    Line("That was in twenty twenty-four, before the merger."),
    Line("Oh, I see, so the finance team signs off."),
    Line("We met at the conference in Austin, remember?"),
    Line("The order reference is 4111 1111 1111 1112, not valid as a card."),
    Line("Our server is at 10.0.0.15 on the internal network."),
    Line("Page 12, section 4.2, clause 7."),
    Line("Discount of 20 percent if you sign by the 15th."),
    Line("The contract is 36 months with 2 renewals."),
    Line("Deal size about 850k, maybe 900k with services."),
    Line("Attendance: 120 people in 2024, 180 in 2025, 240 expected in 2026."),
    Line("Between 9 and 5 Eastern, Monday to Friday."),
    Line("The invoice total was $4,155,551,212 across all regions, which is wrong."),
    Line("We have five hundred seats and two hundred more next year."),
    Line("I counted three, four, maybe five decision makers."),
    Line("Pricing starts at €9,990 for up to 50 users."),
    Line("The SKU is PLT-2026-0042 for the platform bundle."),
    Line("The release is 11.3.0 and the hotfix is 11.3.2."),
    Line("Revenue grew from 1.2 million to 1.8 million."),
    Line("Send me the deck at the end of the call, I'll look at it."),
    # Written after the rules were, as a check on them (see HELD_OUT below).
    Line("We closed 12 deals worth $2.4M in Q4."),
    Line("The meeting is on March 3rd, 2027 at 10:15."),
    Line("We need 300 licenses, maybe 350."),
    Line("Check build 2026.11.30 in the release notes."),
    Line("Forty two percent of our pipeline is stuck."),
    Line("The PO number is 4500012345 in SAP."),  # ten bare digits: read as a phone, a known miss
    Line("We moved from 8 to 12 regions and 1,000 to 1,500 accounts."),
    Line("I think five, six people will be on the call."),
    Line("Line 2 of 10 in the contract says 30 days."),
]

# The 18 lines marked above were written after the rules and run once, untouched:
# they found 9 of 9 items but one with the wrong edges (+49 lost its country code)
# and read a bare ten-digit PO number as a phone: recall 8/9 = 0.89, precision
# 8/10 = 0.80. The country-code fix came after; the PO number stays a known miss.
HELD_OUT_FIRST_RUN = {"redaction_recall": 8 / 9, "redaction_precision": 8 / 10}

CORPUS = WITH_PII + WITHOUT_PII


def _clean(text: str) -> str:
    return text.strip(" ,.;:")


def corpus_figures() -> dict[str, float]:
    """Recall and precision of redaction on the corpus, per PII item."""
    expected_total = sum(len(line.pii) for line in CORPUS)
    found_total = 0
    true_found = 0
    recalled = 0
    for line in CORPUS:
        redactions = redact(line.text).redactions
        found_total += len(redactions)
        wanted = list(line.pii)
        for r in redactions:
            match = next((w for w in wanted if w[0] == r.kind and _clean(w[1]) == _clean(r.original)), None)
            if match:
                true_found += 1
                recalled += 1
                wanted.remove(match)
    return {
        "redaction_recall": recalled / expected_total,
        "redaction_precision": true_found / found_total if found_total else 1.0,
        "redaction_corpus_lines": float(len(CORPUS)),
        "redaction_pii_items": float(expected_total),
    }


def misses() -> list[tuple[str, str, str]]:
    """Lines whose redacted text differs from the label: (text, expected, got)."""
    out = []
    for line in CORPUS:
        got = redact(line.text).text
        if got != line.expected_text:
            out.append((line.text, line.expected_text, got))
    return out


if __name__ == "__main__":
    for text, expected, got in misses():
        print(f"IN:   {text}\nWANT: {expected}\nGOT:  {got}\n")
    print(corpus_figures())
