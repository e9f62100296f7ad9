/* spin.c — an endless loop burning CPU: stopped by the CPU time limit. */
int main(void)
{
    volatile unsigned long n = 0;
    for (;;)
        n++;
}
