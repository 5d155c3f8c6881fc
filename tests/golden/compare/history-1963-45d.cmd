# Issue 3: 1963 45(d), split in 2007 into 45C4(a) and 45C4(b), both reworded in 2017.
args: history '1963:45(d)' --no-color
exit: 0
