void g(void)
{
    // >>> SOLUTION
    // === STUB
    int a;
    // === STUB
    // <<< END
}
