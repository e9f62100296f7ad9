x = 1
# >>> SOLUTION
y = 2
# <<< END
# <<< END
