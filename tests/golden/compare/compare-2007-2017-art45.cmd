# Issue 3: 2007 -> 2017, article 45 (see tests/fixtures/align/2007-2017-art45.gold).
args: compare 2007 2017 --article 45 --no-color
exit: 0
