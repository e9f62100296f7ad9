// warn.cu — compiles with a warning under -Wall (an unused variable); an
// error with -Werror all-warnings.
int main(void)
{
    int unused_variable;
    return 0;
}
