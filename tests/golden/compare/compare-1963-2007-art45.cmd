# Issue 3: 1963 -> 2007, article 45 (see tests/fixtures/align/1963-2007-art45.gold).
args: compare 1963 2007 --article 45 --no-color
exit: 0
