# Issue 3: 2017 45C4(b) back to 1963 45(d).
args: history '2017:45C4(b)' --no-color
exit: 0
